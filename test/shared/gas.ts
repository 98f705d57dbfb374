import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { ContractTransactionResponse } from "ethers";

/**
 * Gas snapshots of the hot paths, committed in `gas-snapshot.json` (one entry per named path).
 * `npm test` fails when a path costs more than its snapshot; `npm run gas:snapshot` rewrites the
 * file, and the commit that raises a figure says why.
 */
const SNAPSHOT_FILE = join(__dirname, "..", "..", "gas-snapshot.json");
const updating = process.env.GAS_SNAPSHOT === "update";

/**
 * Under solidity-coverage the bytecode is instrumented and every gas figure inflates: hot paths
 * still run (and must succeed) but are compared neither with the snapshot nor with targets.
 */
export function isCoverageRun(): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hre = require("hardhat") as { __SOLIDITY_COVERAGE_RUNNING?: boolean };
  return hre.__SOLIDITY_COVERAGE_RUNNING === true;
}

function readSnapshot(): Record<string, number> {
  return existsSync(SNAPSHOT_FILE)
    ? (JSON.parse(readFileSync(SNAPSHOT_FILE, "utf8")) as Record<string, number>)
    : {};
}

export class GasRegressionError extends Error {
  constructor(name: string, snapshot: number, measured: number) {
    super(
      `gas for "${name}" rose from ${snapshot} to ${measured}; if intended, run \`npm run gas:snapshot\` and say why in the commit`,
    );
  }
}

/**
 * A zero calldata byte costs 4 gas and any other 16 (EIP-2028), so the same call costs a few gas
 * more or less depending on how many zero bytes its addresses and hashes happen to contain, and
 * those depend on what ran before on the shared test network. Snapshots price every calldata byte
 * as non-zero: the figure is the transaction's cost in the worst case, and it is reproducible.
 */
function zeroByteDiscount(data: string): number {
  let zeros = 0;
  for (let i = 2; i < data.length; i += 2) if (data[i] === "0" && data[i + 1] === "0") zeros += 1;
  return zeros * 12;
}

/** Records the gas a mined transaction used under `name` and checks it against the snapshot. */
export async function snapshotGas(
  name: string,
  tx: ContractTransactionResponse | Promise<ContractTransactionResponse>,
): Promise<number> {
  const sent = await tx;
  const receipt = await sent.wait();
  if (!receipt) throw new Error(`no receipt for gas snapshot "${name}"`);
  return snapshotGasValue(name, Number(receipt.gasUsed) + zeroByteDiscount(sent.data));
}

/**
 * As `snapshotGas`, for a call measured with `estimateGas` (a view read): `data` is its calldata,
 * priced as non-zero like a mined transaction's, so the figure does not move with test order.
 */
export function snapshotEstimatedGas(name: string, estimate: bigint, data: string): number {
  return snapshotGasValue(name, Number(estimate) + zeroByteDiscount(data));
}

/** As `snapshotGas`, for a figure measured another way (e.g. execution gas from a probe contract). */
export function snapshotGasValue(name: string, measured: number): number {
  // On a fork (FORK_URL) the pools, tokens and their storage are another chain's: figures are printed
  // by the tests but are not the replica's, so they are neither compared nor written.
  if (isCoverageRun() || process.env.FORK_URL) return measured;
  const snapshot = readSnapshot();
  if (updating) {
    snapshot[name] = measured;
    const sorted = Object.fromEntries(Object.entries(snapshot).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(SNAPSHOT_FILE, JSON.stringify(sorted, null, 2) + "\n");
    return measured;
  }
  const previous = snapshot[name];
  if (previous !== undefined && measured > previous) throw new GasRegressionError(name, previous, measured);
  return measured;
}
