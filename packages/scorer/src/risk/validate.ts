import { InvalidInputError } from "../errors";
import {
  requireArray,
  requireArrayOrNull,
  requireExactKeys,
  requireNumber,
  requireNumberOrNull,
  requireObject,
  requireString,
} from "./checks";
import { RFC3339, toUnixSeconds } from "./timestamp";
import type { HolderIndexPoint, Holding, VaultInput, VaultsFile } from "./types";

/** The fields of one vault in `vaults.json`, all required (null where unknown). */
export const VAULT_FIELDS = [
  "id",
  "tvl_usd",
  "holder_index",
  "holdings",
  "liquidation_cushion",
  "free_share",
  "largest_depositor_share",
  "days_observed",
  "days_traded",
] as const;

const SHARE = { min: 0, max: 1 } as const;
const NON_NEGATIVE = { min: 0 } as const;

// A year of daily points across thousands of vaults is millions of items: each is checked by a
// cheap predicate first and, only when that fails, re-checked slowly to name the field and row.
// A valid item is returned as it came (its keys are exactly the schema's).

function isTimestamp(value: unknown): boolean {
  return (
    (typeof value === "number" && Number.isFinite(value)) ||
    (typeof value === "string" && RFC3339.test(value))
  );
}

/** A non-array object with exactly `keys` as its own keys (inlined: this runs millions of times). */
function hasExactly(object: unknown, keys: readonly string[]): object is Record<string, unknown> {
  if (typeof object !== "object" || object === null || Array.isArray(object)) return false;
  if (Object.keys(object).length !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(object, key)) return false;
  return true;
}

const POINT_KEYS = ["at", "index"] as const;
const HOLDING_KEYS = ["instrument", "side", "usd"] as const;

function describePoint(raw: unknown, path: string, previous: number): never {
  const point = requireObject(raw, path);
  requireExactKeys(point, POINT_KEYS, path);
  const seconds = toUnixSeconds(point.at, `${path}.at`);
  if (seconds <= previous)
    throw new InvalidInputError(`${path}.at`, "must be later than the point before it");
  requireNumber(point.index, `${path}.index`, NON_NEGATIVE);
  throw new InvalidInputError(path, "is not a valid point");
}

function parseHolderIndex(value: unknown, path: string): HolderIndexPoint[] | null {
  const points = requireArrayOrNull(value, path);
  if (points === null) return null;
  let previous = -Infinity;
  for (let i = 0; i < points.length; i++) {
    const point = points[i] as Record<string, unknown>;
    const ok =
      hasExactly(point, POINT_KEYS) &&
      isTimestamp(point.at) &&
      typeof point.index === "number" &&
      Number.isFinite(point.index) &&
      point.index >= 0;
    const seconds = !ok
      ? NaN
      : typeof point.at === "number"
        ? point.at
        : Date.parse(point.at as string) / 1000;
    if (!ok || !(seconds > previous)) describePoint(point, `${path}[${i}]`, previous);
    previous = seconds;
  }
  return points as HolderIndexPoint[];
}

function describeHolding(raw: unknown, path: string): never {
  const holding = requireObject(raw, path);
  requireExactKeys(holding, HOLDING_KEYS, path);
  requireString(holding.instrument, `${path}.instrument`);
  if (holding.side !== "long" && holding.side !== "short") {
    throw new InvalidInputError(`${path}.side`, 'must be "long" or "short"');
  }
  requireNumber(holding.usd, `${path}.usd`, NON_NEGATIVE);
  throw new InvalidInputError(path, "is not a valid holding");
}

function parseHoldings(value: unknown, path: string): Holding[] | null {
  const holdings = requireArrayOrNull(value, path);
  if (holdings === null) return null;
  for (let i = 0; i < holdings.length; i++) {
    const holding = holdings[i] as Record<string, unknown>;
    const ok =
      hasExactly(holding, HOLDING_KEYS) &&
      typeof holding.instrument === "string" &&
      holding.instrument.length > 0 &&
      (holding.side === "long" || holding.side === "short") &&
      typeof holding.usd === "number" &&
      Number.isFinite(holding.usd) &&
      holding.usd >= 0;
    if (!ok) describeHolding(holding, `${path}[${i}]`);
  }
  return holdings as Holding[];
}

export function parseVault(value: unknown, path: string): VaultInput {
  const vault = requireObject(value, path);
  requireExactKeys(vault, VAULT_FIELDS, path);
  const days_observed = requireNumberOrNull(vault.days_observed, `${path}.days_observed`, NON_NEGATIVE);
  const days_traded = requireNumberOrNull(vault.days_traded, `${path}.days_traded`, NON_NEGATIVE);
  if (days_traded !== null && days_observed !== null && days_traded > days_observed) {
    throw new InvalidInputError(`${path}.days_traded`, "must not exceed days_observed");
  }
  return {
    id: requireString(vault.id, `${path}.id`),
    tvl_usd: requireNumber(vault.tvl_usd, `${path}.tvl_usd`, NON_NEGATIVE),
    holder_index: parseHolderIndex(vault.holder_index, `${path}.holder_index`),
    holdings: parseHoldings(vault.holdings, `${path}.holdings`),
    liquidation_cushion: requireNumberOrNull(
      vault.liquidation_cushion,
      `${path}.liquidation_cushion`,
      NON_NEGATIVE,
    ),
    free_share: requireNumberOrNull(vault.free_share, `${path}.free_share`, SHARE),
    largest_depositor_share: requireNumberOrNull(
      vault.largest_depositor_share,
      `${path}.largest_depositor_share`,
      SHARE,
    ),
    days_observed,
    days_traded,
  };
}

/**
 * Validates a parsed `vaults.json` (schema: packages/scorer/schema/vaults.schema.json) and
 * returns it typed. The first problem is thrown as an InvalidInputError naming field and row.
 */
export function parseVaultsFile(value: unknown): VaultsFile {
  const file = requireObject(value, "$");
  for (const key of Object.keys(file)) {
    if (key !== "vaults" && key !== "$schema")
      throw new InvalidInputError(key, "is not a known field (expected vaults)");
  }
  if (!("vaults" in file)) throw new InvalidInputError("vaults", "is required");
  const seen = new Map<string, number>();
  const vaults = requireArray(file.vaults, "vaults").map((raw, i) => {
    const vault = parseVault(raw, `vaults[${i}]`);
    const first = seen.get(vault.id);
    if (first !== undefined) throw new InvalidInputError(`vaults[${i}].id`, `repeats vaults[${first}].id`);
    seen.set(vault.id, i);
    return vault;
  });
  return { vaults };
}
