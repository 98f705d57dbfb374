import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { Replica } from "../scripts/replica/types";
import type { ResolvedDeployConfig } from "./config";
import type { DeploymentRecord } from "./record";

/** What every step reads and extends. Steps run in file order and each one saves the record. */
export interface DeployContext {
  readonly hre: HardhatRuntimeEnvironment;
  readonly deployer: HardhatEthersSigner;
  readonly config: ResolvedDeployConfig;
  readonly record: DeploymentRecord;
  /** Contracts whose recorded deployment may be replaced when it no longer matches (local: all). */
  readonly redeploy: ReadonlySet<string>;
  /** A replica already built in this process (tests, `npm start`); otherwise step 00 finds or builds one. */
  replica?: Replica;
  readonly log: (line: string) => void;
  /** Names of the contracts this run deployed (empty on a no-op re-run). */
  readonly deployed: string[];
  /** Transactions this run sent. */
  transactions: number;
  save(): void;
}

export interface DeployStep {
  readonly name: string;
  run(context: DeployContext): Promise<void>;
}
