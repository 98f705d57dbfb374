import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "@augur/agent";

/** One deployed contract as recorded: enough to tell whether re-running would change anything. */
export interface ContractRecord {
  address: string;
  /** Constructor arguments, JSON-friendly (bigints as decimal strings). */
  args: unknown[];
  /** keccak256 of the artifact's creation bytecode that was deployed. */
  bytecodeHash: string;
  txHash: string;
  blockNumber: number;
}

export interface StockRecord {
  symbol: string;
  address: string;
  pool?: string;
  updater?: string;
}

/** `deployments/<network>.json`. */
export interface DeploymentRecord {
  format: "augur-deployments/v1";
  network: string;
  chainId: number;
  usdg?: string;
  /** USDG's `decimals()`, read from the token when the ledger's stake was scaled. */
  usdgDecimals?: number;
  stocks: StockRecord[];
  /** Set when the replica was deployed by the deploy itself (hardhat/localhost). */
  replica?: { usdg: string; factory: string; stocks: StockRecord[] };
  contracts: Partial<
    Record<"PriceOracle" | "CallLedger" | "AnchorRegistry" | "OperatorVesting", ContractRecord>
  >;
}

/** The directory of the records: AUGUR_DEPLOYMENTS_DIR, else `deployments/` at the project root. */
export function deploymentsDir(): string {
  return process.env.AUGUR_DEPLOYMENTS_DIR ?? join(__dirname, "..", "deployments");
}

export function recordPath(network: string, dir = deploymentsDir()): string {
  return join(dir, `${network}.json`);
}

export function readRecord(network: string, chainId: number, dir = deploymentsDir()): DeploymentRecord {
  const path = recordPath(network, dir);
  if (existsSync(path)) {
    const record = JSON.parse(readFileSync(path, "utf8")) as DeploymentRecord;
    // A record of another chain under the same name (a restarted node is the same chain id, a
    // fork may not be) is not ours to reuse.
    if (record.chainId === chainId) return record;
  }
  return { format: "augur-deployments/v1", network, chainId, stocks: [], contracts: {} };
}

/** Written after every step, so a deploy killed half way resumes where it stopped. */
export function writeRecord(record: DeploymentRecord, dir = deploymentsDir()): void {
  writeAtomically(recordPath(record.network, dir), `${JSON.stringify(record, null, 2)}\n`);
}

/** JSON form of constructor arguments, for recording and comparing. */
export function jsonArgs(args: readonly unknown[]): unknown[] {
  return args.map((a) =>
    typeof a === "bigint" ? a.toString() : typeof a === "string" ? a.toLowerCase() : a,
  );
}
