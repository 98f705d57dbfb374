import {
  RISK_COMPONENTS,
  type ComponentSources,
  type Crowd,
  type RiskComponent,
  type VaultSummary,
} from "@augur/scorer";
import type { Store } from "../store/open";
import type { SealedVault } from "./sealed-vault";
import { latestRiskHour, riskSealsAt } from "../store/queries/risk";

/** A vault's last stored readings (seals and leaves, in component order) and row (seal, leaf and capital). */
export interface CarriedVault {
  readonly readingSeals: readonly string[];
  readonly readingLeaves: readonly number[];
  readonly rowSeal: string;
  readonly rowLeaf: number;
  readonly tvl: number;
}

/** What one season's risk hour cost. */
export interface RiskCadenceCounts {
  /** Vaults whose readings were computed (and sealed) this hour. */
  read: number;
  /** Vaults whose inputs did not change: the last hour's readings, not computed again. */
  kept: number;
  /** Readings and rows stored this hour (the rest repeat their last stored seal). */
  readings: number;
  rows: number;
  /** Capitals stored on their own: the row's seal did not change, its capital did. */
  capital: number;
}

/** What this process read the vaults of an hour from: a vault whose inputs did not change reads the same. */
export interface HourInputs {
  readonly summaries: ReadonlyMap<string, VaultSummary>;
  readonly sources: ReadonlyMap<string, ComponentSources>;
  readonly crowd: Crowd;
  /** Each vault's readings and row as last sealed here (kept ones included): what moved is sealed again. */
  readonly sealed: ReadonlyMap<string, SealedVault>;
}

/** A season's last risk hour: every vault's readings and row as of it, and, if computed here, its inputs. */
export interface RiskHourMemory {
  readonly hour: number;
  readonly vaults: ReadonlyMap<string, CarriedVault>;
  readonly inputs?: HourInputs;
}

/**
 * The risk step's memory of each season's last hour, so a reading or row is stored only when
 * its seal (or a row's capital) changed and a vault whose inputs did not change is not read
 * again. Kept in memory between hours; rebuilt from the store (the readings and rows served at
 * its latest risk hour) when the store's latest hour is not the one remembered, e.g. after a
 * restart. A rebuilt memory has no inputs: that hour every vault is read.
 */
export class RiskCadence {
  private readonly seasons = new Map<string, RiskHourMemory>();
  /** The last season stored: vaults read again and kept from the hour before, readings and rows stored. */
  counts: RiskCadenceCounts = { read: 0, kept: 0, readings: 0, rows: 0, capital: 0 };

  /** The season's last risk hour (undefined before the first). */
  async last(store: Pick<Store, "db">, seasonId: string): Promise<RiskHourMemory | undefined> {
    const hour = await latestRiskHour(store.db, seasonId);
    if (hour === null) return undefined;
    const known = this.seasons.get(seasonId);
    if (known?.hour === hour) return known;
    // Seals, leaves and capital only: the bodies and anchors of 7 rows a vault are not needed here.
    const { rows, readings } = await riskSealsAt(store.db, seasonId, hour);
    const seals = new Map<string, { seals: string[]; leaves: number[] }>();
    for (const r of readings) {
      const list = seals.get(r.vault_id) ?? { seals: [], leaves: [] };
      const k = RISK_COMPONENTS.indexOf(r.component as RiskComponent);
      list.seals[k] = r.seal;
      list.leaves[k] = Number(r.leaf_index);
      seals.set(r.vault_id, list);
    }
    const vaults = new Map<string, CarriedVault>(
      rows.map((r) => [
        r.vault_id,
        {
          readingSeals: seals.get(r.vault_id)?.seals ?? [],
          readingLeaves: seals.get(r.vault_id)?.leaves ?? [],
          rowSeal: r.seal,
          rowLeaf: Number(r.leaf_index),
          tvl: r.tvl_usd,
        },
      ]),
    );
    const rebuilt = { hour, vaults };
    this.seasons.set(seasonId, rebuilt);
    return rebuilt;
  }

  /** Remembers the season's hour just stored, and what it cost. */
  remember(seasonId: string, memory: RiskHourMemory, counts: RiskCadenceCounts): void {
    this.seasons.set(seasonId, memory);
    this.counts = counts;
  }
}

const perStore = new WeakMap<object, RiskCadence>();

/** The process's risk cadence of this store (it lives as long as the store is open). */
export function riskCadence(store: Pick<Store, "db">): RiskCadence {
  let cadence = perStore.get(store.db);
  if (!cadence) perStore.set(store.db, (cadence = new RiskCadence()));
  return cadence;
}
