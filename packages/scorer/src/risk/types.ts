import type { RiskComponent } from "./constants";

/** Unix seconds, or an RFC 3339 date-time with a zone (`2026-11-30T00:00:00Z`). */
export type Timestamp = number | string;

/** One point of the holder-return curve: the value of one share, so flows do not move it. */
export interface HolderIndexPoint {
  readonly at: Timestamp;
  readonly index: number;
}

/** One open position; `usd` is its size (always ≥ 0), `side` its direction. */
export interface Holding {
  readonly instrument: string;
  readonly side: "long" | "short";
  readonly usd: number;
}

/** One vault of `vaults.json`. Every field is present; null means "not known", never zero. */
export interface VaultInput {
  readonly id: string;
  readonly tvl_usd: number;
  readonly holder_index: readonly HolderIndexPoint[] | null;
  readonly holdings: readonly Holding[] | null;
  /** Adverse move (fraction of price) to breach maintenance margin; 1 for an unleveraged long book. */
  readonly liquidation_cushion: number | null;
  readonly free_share: number | null;
  readonly largest_depositor_share: number | null;
  readonly days_observed: number | null;
  readonly days_traded: number | null;
}

export interface VaultsFile {
  readonly vaults: readonly VaultInput[];
}

/** Each component on 0–1, 1 the worst; null where it cannot be measured. */
export type RiskComponents = { readonly [K in RiskComponent]: number | null };

/** Why a row has no score; null when it has one. */
export type RiskReason = "insufficient_measurable";

export interface RiskRow {
  readonly vault_id: string;
  /** 0–100, higher is worse; null below the minimum measurable share. */
  readonly score: number | null;
  /** Share of the total weight whose component could be measured, 0–1. */
  readonly measurable_share: number;
  readonly components: RiskComponents;
  readonly reason: RiskReason | null;
}

export interface RiskCoverage {
  /** Scored vaults' TVL over all vaults' TVL; null when there is no capital at all. */
  readonly capital_share: number | null;
  /** Scored vaults over all vaults; null when there are no vaults. */
  readonly vault_share: number | null;
  readonly unscored: number;
}

export interface RiskReport {
  readonly rows: RiskRow[];
  readonly coverage: RiskCoverage;
}
