import type { Hex32 } from "../hex";
import { seal } from "../seal";
import { RISK_COMPONENTS, RISK_SCORE_V1, type RiskComponent } from "./constants";
import type { Crowd } from "./shared-exposure";
import { readComponentsWith } from "./score-vaults";
import { combineReadings } from "./total";
import type { RiskComponents, RiskRow, VaultInput } from "./types";
import { toUnixSeconds } from "./timestamp";
import { fallReading, worstFall } from "./worst-fall";

/**
 * One component of one vault as published on its own page: the reading (0–1, 1 the worst, or
 * null), why it is null, and the inputs it was read from, so the page can be checked on its own
 * and the risk score adds no measurement of its own.
 */
export interface ComponentReading {
  readonly vault_id: string;
  readonly component: RiskComponent;
  readonly reading: number | null;
  /** Why the reading is null (null when there is a reading). */
  readonly reason: string | null;
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** Where a fact the records do not carry came from, or why it is missing (set by the engine). */
export interface ComponentSource {
  readonly source?: Readonly<Record<string, unknown>>;
  /** Why the fact is unknown, when it is. */
  readonly reason?: string;
}

export type ComponentSources = Partial<Readonly<Record<RiskComponent, ComponentSource>>>;

/** Why each component reads null when its input is unknown, unless the engine says more. */
export const NULL_REASONS: Readonly<Record<RiskComponent, string>> = {
  worst_fall: "fewer than two holder-index points",
  shared_exposure: "holdings unknown: no snapshot observed",
  liquidation:
    "margin terms unknown: the book borrows or is short and the venue does not state its maintenance margin",
  exit: "the venue does not say what share could be withdrawn",
  largest_depositor: "the venue does not say who holds the vault",
  stopped: "no snapshot observed",
};

/** What the readings take of a holder index: its length, first and last times and worst fall. */
export interface HolderIndexSummary {
  readonly points: number;
  readonly first_at: number;
  readonly last_at: number;
  /** The worst fall over every point (0 with one point). */
  readonly fall: number;
}

/** A vault as its readings read it: the holder index summarised (null: no point). */
export type VaultSummary = Omit<VaultInput, "holder_index"> & {
  readonly holder_index: HolderIndexSummary | null;
};

/** The vault with its holder index summarised: what `readSummaryComponents` reads. */
export function summariseVault(vault: VaultInput): VaultSummary {
  const points = vault.holder_index ?? [];
  const holder_index =
    points.length === 0
      ? null
      : {
          points: points.length,
          first_at: toUnixSeconds(points[0]!.at, "holder_index[0].at"),
          last_at: toUnixSeconds(points[points.length - 1]!.at, "holder_index[-1].at"),
          fall: worstFall(points),
        };
  return { ...vault, holder_index };
}

function worstFallInputs(vault: VaultSummary): Record<string, unknown> {
  const h = vault.holder_index;
  if (h === null) return { holder_index_points: 0 };
  return {
    holder_index_points: h.points,
    first_at: h.first_at,
    last_at: h.last_at,
    fall: h.points >= 2 ? h.fall : null,
  };
}

/** The vault's holdings and, per instrument it holds, what everybody else holds long and short. */
function sharedExposureInputs(vault: VaultSummary, crowd: Crowd): Record<string, unknown> {
  if (vault.holdings === null) return { holdings: null };
  const own = new Map<string, { long: number; short: number }>();
  for (const h of vault.holdings) {
    const entry = own.get(h.instrument) ?? { long: 0, short: 0 };
    entry[h.side] += h.usd;
    own.set(h.instrument, entry);
  }
  const others = [...own].map(([instrument, mine]) => {
    const all = crowd.get(instrument) ?? mine;
    return { instrument, long_usd: all.long - mine.long, short_usd: all.short - mine.short };
  });
  return { holdings: vault.holdings, others };
}

function inputsOf(component: RiskComponent, vault: VaultSummary, crowd: Crowd): Record<string, unknown> {
  switch (component) {
    case "worst_fall":
      return worstFallInputs(vault);
    case "shared_exposure":
      return sharedExposureInputs(vault, crowd);
    case "liquidation":
      return { cushion: vault.liquidation_cushion };
    case "exit":
      return { free_share: vault.free_share };
    case "largest_depositor":
      return { largest_depositor_share: vault.largest_depositor_share };
    case "stopped":
      return { days_observed: vault.days_observed, days_traded: vault.days_traded };
  }
}

/** The six published readings of one vault, in component order. Shared exposure needs the crowd. */
export function readVaultComponents(
  vault: VaultInput,
  crowd: Crowd,
  sources: ComponentSources = {},
): ComponentReading[] {
  return readSummaryComponents(summariseVault(vault), crowd, sources);
}

/** `readVaultComponents` of a vault whose holder index is summarised (the cycle's incremental path). */
export function readSummaryComponents(
  vault: VaultSummary,
  crowd: Crowd,
  sources: ComponentSources = {},
): ComponentReading[] {
  const h = vault.holder_index;
  const readings = readComponentsWith(h === null || h.points < 2 ? null : fallReading(h.fall), vault, crowd);
  return RISK_COMPONENTS.map((component) => {
    const reading = readings[component];
    const told = sources[component];
    const inputs = inputsOf(component, vault, crowd);
    return {
      vault_id: vault.id,
      component,
      reading,
      reason: reading === null ? (told?.reason ?? NULL_REASONS[component]) : null,
      inputs: told?.source ? { ...inputs, source: told.source } : inputs,
    };
  });
}

/**
 * The vault's risk row from its six published readings and nothing else: the score adds no
 * measurement of its own. Refuses a set that is not exactly one reading per component of one vault.
 */
export function rowFromReadings(readings: readonly ComponentReading[]): RiskRow {
  const vault_id = readings[0]?.vault_id;
  const byComponent = new Map(readings.map((r) => [r.component, r]));
  if (
    vault_id === undefined ||
    readings.length !== RISK_COMPONENTS.length ||
    byComponent.size !== RISK_COMPONENTS.length ||
    readings.some((r) => r.vault_id !== vault_id)
  )
    throw new RangeError("a risk row needs exactly one reading of each of the six components of one vault");
  const components = Object.fromEntries(
    RISK_COMPONENTS.map((c) => [c, byComponent.get(c)!.reading]),
  ) as RiskComponents;
  return { vault_id, components, ...combineReadings(components) };
}

/** The record a component reading is sealed as: the reading plus the methodology that produced it. */
export function componentReadingRecord(r: ComponentReading): { methodology: string } & ComponentReading {
  return { methodology: RISK_SCORE_V1.version, ...r };
}

/** sha256 of the reading's canonical JSON (with its methodology), ready for the Merkle log. */
export function sealComponentReading(r: ComponentReading): Hex32 {
  return seal(componentReadingRecord(r));
}
