import { getAddress, isAddress, parseUnits } from "ethers";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Networks whose chain is a throw-away development chain: the replica lives there. */
export const LOCAL_NETWORKS = new Set(["hardhat", "localhost"]);

/** A stock as configured for a remote network: its token and its USDG pool (or a price updater). */
export interface StockConfig {
  symbol: string;
  address: string | null;
  pool?: string | null;
  updater?: string | null;
}

/** One network's entry of `config/deploy.json`, as written (nulls allowed). */
export interface NetworkDeployConfig {
  replica: boolean;
  usdg: string | null;
  stocks: StockConfig[];
  twapWindow: number;
  settleGrace: number;
  windows: number[];
  minStake: string;
  revealTimeout: number;
  consensusQuorum: number;
  thresholdBps: number;
  keeper: string | null;
  admin: string | null;
  multisig: string | null;
  /** The operator's vesting allocation (deploy/04_operator_vesting.ts); absent or null: none. */
  operatorAllocation?: OperatorAllocationConfig | null;
}

/** `networks.<name>.operatorAllocation`: who vests, from when (unix seconds), for how long. */
export interface OperatorAllocationConfig {
  operator: string | null;
  start: number | null;
  durationSeconds: number;
}

/** The same, every value known: what the deploy steps use. */
export interface ResolvedDeployConfig {
  network: string;
  replica: boolean;
  usdg?: string;
  stocks: { symbol: string; address: string; pool?: string; updater?: string }[];
  twapWindow: number;
  /** Seconds after a call closes within which the settler settles it (docs/price-oracle.md). */
  settleGrace: number;
  windows: number[];
  /** Whole USDG as a decimal string ("100", "12.5"); `stakeUnits` scales it by USDG's decimals. */
  minStake: string;
  revealTimeout: number;
  consensusQuorum: number;
  thresholdBps: number;
  keeper: string;
  admin: string;
  multisig?: string;
  /** `start` undefined: a local network's first deploy time (kept on re-runs). */
  operatorAllocation?: { operator: string; start?: number; durationSeconds: number };
}

export class DeployConfigError extends Error {
  override readonly name = "DeployConfigError";
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`config/deploy.json: ${field} ${problem}`);
  }
}

/** The longest history a Uniswap v3 pool's buffer (at most 65,535 observations) always holds. */
export const MAX_REQUIRED_SPAN = 65_534;

export const DEFAULT_CONFIG_PATH = join(__dirname, "..", "config", "deploy.json");

export function readDeployConfig(network: string, path = DEFAULT_CONFIG_PATH): NetworkDeployConfig {
  const file = JSON.parse(readFileSync(path, "utf8")) as { networks: Record<string, NetworkDeployConfig> };
  const entry = file.networks[network];
  if (!entry) {
    throw new DeployConfigError(
      `networks.${network}`,
      `is missing: add an entry (known: ${Object.keys(file.networks).join(", ")})`,
    );
  }
  return entry;
}

/**
 * Checks every field and fills the local defaults: on hardhat/localhost a null admin or keeper is
 * the deployer. On a remote network a null anywhere stops the deploy, naming the field: an
 * address is never guessed.
 */
export function resolveDeployConfig(
  network: string,
  raw: NetworkDeployConfig,
  deployer: string,
): ResolvedDeployConfig {
  const local = LOCAL_NETWORKS.has(network);
  const at = (field: string) => `networks.${network}.${field}`;
  const address = (field: string, value: string | null | undefined, fallback?: string): string => {
    if (value === null || value === undefined) {
      if (fallback) return fallback;
      throw new DeployConfigError(
        at(field),
        "is null: fill in the real address before deploying to this network",
      );
    }
    if (!isAddress(value)) throw new DeployConfigError(at(field), `is not an address: ${value}`);
    return getAddress(value);
  };
  const integer = (field: string, value: unknown, min: number, max: number): number => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw new DeployConfigError(
        at(field),
        `must be an integer from ${min} to ${max}, got ${String(value)}`,
      );
    }
    return value;
  };
  if (raw.replica && !local)
    throw new DeployConfigError(at("replica"), "can only be true on hardhat or localhost");
  if (!Array.isArray(raw.windows) || raw.windows.length === 0) {
    throw new DeployConfigError(at("windows"), "must list at least one window (seconds)");
  }
  if (
    typeof raw.minStake !== "string" ||
    !/^\d+(\.\d+)?$/.test(raw.minStake) ||
    !/[1-9]/.test(raw.minStake)
  ) {
    throw new DeployConfigError(
      at("minStake"),
      `must be a positive USDG amount as a decimal string, got ${String(raw.minStake)}`,
    );
  }
  const twapWindow = integer("twapWindow", raw.twapWindow, 1, MAX_REQUIRED_SPAN);
  const usdg = raw.replica ? undefined : address("usdg", raw.usdg);
  const stocks = raw.replica
    ? []
    : raw.stocks.map((s, i) => {
        const pool = s.pool ? address(`stocks[${i}].pool`, s.pool) : undefined;
        const updater = s.updater ? address(`stocks[${i}].updater`, s.updater) : undefined;
        if (!pool && !updater) {
          throw new DeployConfigError(
            at(`stocks[${i}].pool`),
            "is null: give the stock's USDG pool (or an updater that pushes its price)",
          );
        }
        return { symbol: s.symbol, address: address(`stocks[${i}].address`, s.address), pool, updater };
      });
  if (!raw.replica && stocks.length === 0) {
    throw new DeployConfigError(
      at("stocks"),
      "is empty: list the stock tokens and their pools (from official sources)",
    );
  }
  const admin = address("admin", raw.admin, local ? deployer : undefined);
  if (admin !== getAddress(deployer)) {
    throw new DeployConfigError(
      at("admin"),
      `is ${admin} but the deploying key is ${deployer}: deploy and configure with the admin's key, then hand over to the multisig (docs/deploy.md)`,
    );
  }
  const allocation = raw.operatorAllocation;
  const operatorAllocation = allocation
    ? {
        operator: address("operatorAllocation.operator", allocation.operator, local ? deployer : undefined),
        start:
          allocation.start === null && local
            ? undefined
            : integer("operatorAllocation.start", allocation.start, 1, 0xffffffffffff),
        durationSeconds: integer(
          "operatorAllocation.durationSeconds",
          allocation.durationSeconds,
          1,
          0xffffffffffff,
        ),
      }
    : undefined;
  return {
    network,
    replica: raw.replica,
    usdg,
    stocks,
    twapWindow,
    // The oracle's requiredSpan = twapWindow + settleGrace must fit a pool's cardinality (uint16).
    settleGrace: integer("settleGrace", raw.settleGrace, 0, MAX_REQUIRED_SPAN - twapWindow),
    windows: raw.windows.map((w, i) => integer(`windows[${i}]`, w, 1, 0xffffffff)),
    minStake: raw.minStake,
    revealTimeout: integer("revealTimeout", raw.revealTimeout, 1, 0xffffffff),
    consensusQuorum: integer("consensusQuorum", raw.consensusQuorum, 1, 0xffffffff),
    thresholdBps: integer("thresholdBps", raw.thresholdBps, 5001, 10_000),
    keeper: address("keeper", raw.keeper, local ? deployer : undefined),
    admin,
    multisig: raw.multisig
      ? address("multisig", raw.multisig)
      : local
        ? undefined
        : address("multisig", raw.multisig),
    operatorAllocation,
  };
}

/**
 * `amount` whole USDG (a decimal string) in base units of a USDG with `decimals` decimals, as read
 * from the token on chain: sources disagree between 6 and 18 for Robinhood Chain's USDG, so the
 * config never states base units. Refuses an amount finer than the token can hold.
 */
export function stakeUnits(amount: string, decimals: number): bigint {
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.replace(/0+$/, "").length > decimals) {
    throw new DeployConfigError("minStake", `${amount} has more decimals than USDG's ${decimals}`);
  }
  return parseUnits(amount, decimals);
}
