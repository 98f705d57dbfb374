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
import { toUnixSeconds } from "./timestamp";
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

function parseHolderIndex(value: unknown, path: string): HolderIndexPoint[] | null {
  const points = requireArrayOrNull(value, path);
  if (points === null) return null;
  let previous = -Infinity;
  return points.map((raw, i) => {
    const at = `${path}[${i}]`;
    const point = requireObject(raw, at);
    requireExactKeys(point, ["at", "index"], at);
    const seconds = toUnixSeconds(point.at, `${at}.at`);
    if (seconds <= previous)
      throw new InvalidInputError(`${at}.at`, "must be later than the point before it");
    previous = seconds;
    return {
      at: point.at as HolderIndexPoint["at"],
      index: requireNumber(point.index, `${at}.index`, NON_NEGATIVE),
    };
  });
}

function parseHoldings(value: unknown, path: string): Holding[] | null {
  const holdings = requireArrayOrNull(value, path);
  if (holdings === null) return null;
  return holdings.map((raw, i) => {
    const at = `${path}[${i}]`;
    const holding = requireObject(raw, at);
    requireExactKeys(holding, ["instrument", "side", "usd"], at);
    const side = holding.side;
    if (side !== "long" && side !== "short")
      throw new InvalidInputError(`${at}.side`, 'must be "long" or "short"');
    return {
      instrument: requireString(holding.instrument, `${at}.instrument`),
      side,
      usd: requireNumber(holding.usd, `${at}.usd`, NON_NEGATIVE),
    };
  });
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
