import type { CallLedger } from "../typechain-types";
import { stakeUnits } from "./config";
import { configure, deployOnce } from "./contract";
import type { DeployStep } from "./context";

/**
 * CallLedger(usdg, oracle, minStake, admin), then windows and the consensus parameters. minStake is
 * the config's whole-USDG amount scaled by the `decimals()` USDG reports (recorded as usdgDecimals).
 */
export const callLedgerStep: DeployStep = {
  name: "02_call_ledger",
  async run(context) {
    const { config, record, hre, deployer } = context;
    const oracle = record.contracts.PriceOracle!.address;
    const usdg = await hre.ethers.getContractAt("IERC20Metadata", record.usdg!);
    record.usdgDecimals = Number(await usdg.decimals());
    const address = await deployOnce(context, "CallLedger", [
      record.usdg!,
      oracle,
      stakeUnits(config.minStake, record.usdgDecimals),
      config.admin,
    ]);
    const ledger = (await hre.ethers.getContractAt("CallLedger", address, deployer)) as unknown as CallLedger;
    for (const window of config.windows) {
      if (!(await ledger.windowAllowed(window))) {
        await configure(context, `ledger.setWindow(${window}, true)`, () => ledger.setWindow(window, true));
      }
    }
    if (Number(await ledger.revealTimeout()) !== config.revealTimeout) {
      await configure(context, `ledger.setRevealTimeout(${config.revealTimeout})`, () =>
        ledger.setRevealTimeout(config.revealTimeout),
      );
    }
    if (Number(await ledger.consensusQuorum()) !== config.consensusQuorum) {
      await configure(context, `ledger.setConsensusQuorum(${config.consensusQuorum})`, () =>
        ledger.setConsensusQuorum(config.consensusQuorum),
      );
    }
    if (Number(await ledger.thresholdBps()) !== config.thresholdBps) {
      await configure(context, `ledger.setThresholdBps(${config.thresholdBps})`, () =>
        ledger.setThresholdBps(config.thresholdBps),
      );
    }
  },
};
