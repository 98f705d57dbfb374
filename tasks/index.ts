// Every Augur task; hardhat.config.ts imports this one file.
import "./deploy";
import "./calls";
import "./stake";
import "./consensus";
import "./oracle";
import "./anchor";
import "./split";
import "./vesting";
