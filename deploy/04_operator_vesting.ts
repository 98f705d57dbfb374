import { deployOnce } from "./contract";
import type { DeployStep } from "./context";

/**
 * OperatorVesting(operator, start, duration): the operator allocation of the project token, whose
 * unvested part is burned at wind-down (seed 002, docs/deploy.md). Skipped when the network's
 * config names no allocation. Funding it (minting or sending the allocation) is the token
 * holder's act, outside the deploy; the monitor lists the contract among the excluded addresses.
 */
export const operatorVestingStep: DeployStep = {
  name: "04_operator_vesting",
  async run(context) {
    const allocation = context.config.operatorAllocation;
    if (!allocation) {
      context.log("  OperatorVesting: no operatorAllocation in the config, skipped");
      return;
    }
    // A local network's schedule starts at its first deploy and keeps that start on re-runs.
    const previous = context.record.contracts.OperatorVesting;
    const start =
      allocation.start ??
      (previous
        ? Number(previous.args[1])
        : (await context.hre.ethers.provider.getBlock("latest"))!.timestamp);
    await deployOnce(context, "OperatorVesting", [allocation.operator, start, allocation.durationSeconds]);
  },
};
