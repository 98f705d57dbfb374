import type { AnchorRegistry, CallLedger, OperatorVesting, PriceOracle } from "../typechain-types";
import { stakeUnits } from "./config";
import type { DeployContext } from "./context";

/** One parameter read back from the chain beside what the config asked for. */
export interface Check {
  readonly what: string;
  readonly expected: string;
  readonly actual: string;
  readonly ok: boolean;
}

export class DeployCheckError extends Error {
  override readonly name = "DeployCheckError";
  constructor(readonly failed: readonly Check[]) {
    super(
      `post-deploy check failed: ${failed.map((c) => `${c.what} is ${c.actual}, expected ${c.expected}`).join("; ")}`,
    );
  }
}

const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * Reads every deployed parameter back (addresses, windows, required span, timeouts, quorum, threshold, owners,
 * roles, pools, and a live price per pooled stock) and throws DeployCheckError listing each
 * mismatch. A deploy is only reported done after this passes.
 */
export async function checkDeployment(context: DeployContext): Promise<Check[]> {
  const { hre, record, config } = context;
  const oracle = (await hre.ethers.getContractAt(
    "PriceOracle",
    record.contracts.PriceOracle!.address,
  )) as unknown as PriceOracle;
  const ledger = (await hre.ethers.getContractAt(
    "CallLedger",
    record.contracts.CallLedger!.address,
  )) as unknown as CallLedger;
  const registry = (await hre.ethers.getContractAt(
    "AnchorRegistry",
    record.contracts.AnchorRegistry!.address,
  )) as unknown as AnchorRegistry;
  const checks: Check[] = [];
  const expect = (what: string, expected: unknown, actual: unknown) =>
    checks.push({ what, expected: String(expected), actual: String(actual), ok: same(expected, actual) });

  expect("oracle.usdg", record.usdg, await oracle.usdg());
  expect("oracle.twapWindow", config.twapWindow, await oracle.twapWindow());
  expect("oracle.requiredSpan", config.twapWindow + config.settleGrace, await oracle.requiredSpan());
  // Before the handover the admin owns everything, after it the multisig: both are as configured.
  const owners = [config.admin, config.multisig].filter(Boolean).join(" or ");
  const owner = async (what: string, actual: string) =>
    checks.push({
      what,
      expected: owners,
      actual,
      ok: same(actual, config.admin) || (config.multisig !== undefined && same(actual, config.multisig)),
    });
  await owner("oracle.owner", await oracle.owner());
  for (const stock of record.stocks) {
    if (stock.pool) {
      const [pool] = await oracle.poolOf(stock.address);
      expect(`oracle.poolOf(${stock.symbol})`, stock.pool, pool);
      let priced = "yes";
      try {
        if ((await oracle.price(stock.address)) === 0n) priced = "zero";
      } catch (error) {
        priced = `no (${(error as Error).message.split("\n")[0]})`;
      }
      expect(`oracle.price(${stock.symbol}) readable`, "yes", priced);
    } else if (stock.updater) {
      expect(`oracle.updaterOf(${stock.symbol})`, stock.updater, await oracle.updaterOf(stock.address));
    }
  }
  expect("ledger.usdg", record.usdg, await ledger.usdg());
  expect("ledger.oracle", await oracle.getAddress(), await ledger.oracle());
  const usdgDecimals = Number(
    await (await hre.ethers.getContractAt("IERC20Metadata", record.usdg!)).decimals(),
  );
  expect("ledger.minStake", stakeUnits(config.minStake, usdgDecimals), await ledger.minStake());
  expect("ledger.revealTimeout", config.revealTimeout, await ledger.revealTimeout());
  expect("ledger.consensusQuorum", config.consensusQuorum, await ledger.consensusQuorum());
  expect("ledger.thresholdBps", config.thresholdBps, await ledger.thresholdBps());
  for (const window of config.windows) {
    expect(`ledger.windowAllowed(${window})`, true, await ledger.windowAllowed(window));
  }
  await owner("ledger.owner", await ledger.owner());
  const adminRole = await registry.DEFAULT_ADMIN_ROLE();
  expect(
    "registry admin role",
    true,
    (await registry.hasRole(adminRole, config.admin)) ||
      (config.multisig !== undefined && (await registry.hasRole(adminRole, config.multisig))),
  );
  expect("registry keeper role", true, await registry.hasRole(await registry.KEEPER_ROLE(), config.keeper));

  const allocation = config.operatorAllocation;
  const vestingRecord = record.contracts.OperatorVesting;
  if (allocation && vestingRecord) {
    const vesting = (await hre.ethers.getContractAt(
      "OperatorVesting",
      vestingRecord.address,
    )) as unknown as OperatorVesting;
    expect("vesting.owner", allocation.operator, await vesting.owner());
    expect("vesting.start", allocation.start ?? vestingRecord.args[1], await vesting.start());
    expect("vesting.duration", allocation.durationSeconds, await vesting.duration());
  }

  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) throw new DeployCheckError(failed);
  return checks;
}
