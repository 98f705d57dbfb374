import type { MeasuredSnapshotBody } from "@augur/records";
import {
  buildCrowd,
  summariseVault,
  type ComponentSources,
  type Crowd,
  type VaultSummary,
} from "@augur/scorer";
import { agentBook } from "./books";
import { riskCadence, type CarriedVault, type RiskCadence } from "./cadence";
import type { RiskFolds } from "./folds";
import { DECLARED_VENUE, measuredVenue, type MeasuredVenue } from "./measured";
import { sealVault, type SealedVault } from "./sealed-vault";
import { riskVault } from "./view";
import { seasonAgents } from "../store/queries/agents";
import type { Store } from "../store/open";
import { seasonRecords } from "../store/queries/records";
import { leafIndicesOf } from "../store/queries/log-leaves";
import {
  hasRiskHour,
  insertRiskCapital,
  insertRiskHour,
  insertRiskReadings,
  insertRiskRows,
} from "../store/queries/risk";
import { findSeason } from "../store/queries/seasons";
import { insertFoldStates } from "../store/queries/score-states";
import type { SeasonRowCache } from "../store/season-rows";

/** What the chain says of one agent's exit and depositors, from its anchored measured snapshots. */
async function venueOf(
  store: Store,
  seasonId: string,
  agentId: string,
  anchoredSize: number,
  asOf: number,
): Promise<MeasuredVenue> {
  const stored = await seasonRecords(store.db, seasonId, ["snapshot"], agentId, anchoredSize);
  const bodies = stored
    .map((r) => JSON.parse(r.body) as MeasuredSnapshotBody)
    .filter((b) => b.takenAt <= asOf)
    .sort((a, b) => a.takenAt - b.takenAt);
  return measuredVenue(bodies);
}

const DAY_SECONDS = 24 * 3600;

/** How the risk step stores readings and rows: on change (the cadence's memory), or every hour (the reference). */
export type RiskStorage = RiskCadence | "every-hour";

/**
 * Computes, seals and stores the season's agent-vault component readings and risk rows as of
 * `asOf` from the records below the anchored tree size (as scores are), appending the new seals
 * to the log so the next anchor covers them. Returns the vault count, or undefined when the
 * season already has its risk hour at `asOf` (or no anchored agents). Risk rows are not `records`
 * (that table's kinds are fixed by migration 001): the sealed text lives in `risk_rows.body`, the
 * seal in the log. The records come decoded from `cache` (after scoring, the same hour's rows are
 * already read); each agent's vault is derived from its own rows, one agent at a time: with
 * `folds`, from the agent's fold advanced by its rows since the last hour (the same readings:
 * risk/folds.ts), else from its whole book. The folds to keep are stored in risk_states in the
 * same transaction.
 *
 * Stored on change (docs/risk-score.md): a reading is stored only when its seal differs from the
 * vault's last stored one of that component, a row when its seal or capital differs; every vault's
 * readings and row are stored at the season's first hour and whenever its vault set changes
 * (`risk_hours.all_stored`). A vault whose fold folded nothing since the last hour, on the same UTC day
 * (the stopped reading counts days up to the hour), whose instruments' crowd totals did not move,
 * is not read again: its readings are the last hour's. `storage` "every-hour" stores everything
 * every hour (the reference the on-change path is tested against).
 */
export async function sealSeasonRisk(
  store: Store,
  seasonId: string,
  asOf: number,
  anchoredSize: number,
  now: number,
  cache: SeasonRowCache,
  folds?: RiskFolds,
  storage: RiskStorage = riskCadence(store),
): Promise<number | undefined> {
  const db = store.db;
  if (await hasRiskHour(db, seasonId, asOf)) return undefined;
  const agents = await seasonAgents(db, seasonId, anchoredSize);
  if (agents.length === 0) return undefined;
  const season = (await cache.season(seasonId, anchoredSize, asOf)).rows;
  const measured = (await findSeason(db, seasonId))?.inputs === "measured";
  await folds?.prepare(
    store,
    seasonId,
    anchoredSize,
    asOf,
    agents.map((a) => a.id),
  );
  const last = storage === "every-hour" ? undefined : await storage.last(store, seasonId);
  const full =
    last === undefined ||
    last.hour > asOf ||
    last.vaults.size !== agents.length ||
    agents.some((a) => !last.vaults.has(a.id));
  // The last hour's inputs, where a vault that folded nothing new reads the same again.
  const before =
    !full && last.hour < asOf && Math.floor(last.hour / DAY_SECONDS) === Math.floor(asOf / DAY_SECONDS)
      ? last.inputs
      : undefined;
  const vaults: VaultSummary[] = [];
  const sources: ComponentSources[] = [];
  const steady: boolean[] = [];
  for (const a of agents) {
    let records = season.of(a.id);
    let folded = folds?.advance(seasonId, a.id, records, asOf) === true;
    if (!folded && !records.complete) {
      // The rows start after what the agent's fold saw (or it has none): read its whole history.
      records = await season.complete(store, a.id);
      folded = folds?.advance(seasonId, a.id, records, asOf) === true;
    }
    if (!folded) records.claim("risk", { snapshots: 0, trades: 0 }); // the whole book, again next hour
    const same = folded && before !== undefined && folds!.unchangedSince(seasonId, a.id, last!.hour);
    const kept = same ? before.summaries.get(a.id) : undefined;
    steady.push(kept !== undefined);
    if (kept !== undefined) {
      vaults.push(kept);
      sources.push(before!.sources.get(a.id)!);
      continue;
    }
    const venue = measured ? await venueOf(store, seasonId, a.id, anchoredSize, asOf) : DECLARED_VENUE;
    sources.push(venue.sources);
    vaults.push(
      folded
        ? folds!.vaultOf(seasonId, a.id, venue.venue)
        : summariseVault(riskVault(agentBook(a.id, records), asOf, venue.venue)),
    );
  }
  const crowd = buildCrowd(vaults);
  const moved = before === undefined ? undefined : movedInstruments(before.crowd, crowd);
  const sealedBefore = last?.inputs?.sealed;
  // Each component published on its own; the row is computed from those readings and nothing else.
  const read = vaults.map((v, i): SealedVault | undefined => {
    if (steady[i] && !v.holdings?.some((h) => moved!.has(h.instrument))) return undefined;
    return sealVault(v, crowd, sources[i]!, sealedBefore?.get(agents[i]!.id));
  });
  // What to store: everything at a full hour, else what changed since the vault's last stored. A
  // seal the vault last stored keeps that leaf; the others are looked up in the log (or appended).
  const storeAll = full || storage === "every-hour";
  const readingsToStore: Array<Stored<SealedVault["readings"][number]>> = [];
  const rowsToStore: Array<Stored<SealedVault> & { tvl: number }> = [];
  // A row whose seal did not change but whose capital (outside the seal) did: the capital alone.
  const capitalToStore: Array<{ vault_id: string; tvl: number }> = [];
  read.forEach((x, i) => {
    if (x === undefined) return;
    const carried = last?.vaults.get(agents[i]!.id);
    x.readings.forEach((r, k) => {
      const leaf = carriedLeaf(carried, r.seal, k);
      if (storeAll || leaf === undefined) readingsToStore.push({ x: r, leaf });
    });
    const tvl = vaults[i]!.tvl_usd;
    const leaf = carriedLeaf(carried, x.seal);
    if (storeAll || leaf === undefined) rowsToStore.push({ x, tvl, leaf });
    else if (tvl !== carried!.tvl) capitalToStore.push({ vault_id: agents[i]!.id, tvl });
  });
  const written = await db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    // Re-check under the writer lock: a concurrent cycle may have written this hour meanwhile.
    if (await hasRiskHour(trx, seasonId, asOf)) return undefined;
    // A seal already in the log (an earlier hour's identical reading or row) keeps its leaf.
    const seals = [...readingsToStore, ...rowsToStore]
      .filter((s) => s.leaf === undefined)
      .map((s) => s.x.seal);
    const leaves = await leafIndicesOf(trx, seals);
    const fresh = [...new Set(seals.filter((seal) => !leaves.has(seal)))];
    const first = await store.log.append(trx, fresh, now);
    fresh.forEach((seal, i) => leaves.set(seal, first + i));
    const leafOf = (s: Stored<{ seal: string }>) => s.leaf ?? leaves.get(s.x.seal)!;
    await insertRiskReadings(
      trx,
      readingsToStore.map((s) => ({
        season_id: seasonId,
        as_of: asOf,
        vault_id: s.x.r.vault_id,
        component: s.x.r.component,
        reading: s.x.r.reading,
        reason: s.x.r.reason,
        body: s.x.body,
        seal: s.x.seal,
        leaf_index: leafOf(s),
        created_at: now,
      })),
    );
    await insertRiskRows(
      trx,
      rowsToStore.map((s) => ({
        season_id: seasonId,
        as_of: asOf,
        vault_id: s.x.row.vault_id,
        score: s.x.row.score,
        reason: s.x.row.reason,
        measurable_share: s.x.row.measurable_share,
        components: JSON.stringify(s.x.row.components),
        tvl_usd: s.tvl,
        body: s.x.body,
        seal: s.x.seal,
        leaf_index: leafOf(s),
        created_at: now,
      })),
    );
    await insertRiskCapital(
      trx,
      capitalToStore.map((c) => ({
        season_id: seasonId,
        vault_id: c.vault_id,
        as_of: asOf,
        tvl_usd: c.tvl,
        created_at: now,
      })),
    );
    await insertRiskHour(trx, {
      season_id: seasonId,
      as_of: asOf,
      vaults: agents.length,
      all_stored: storeAll ? 1 : 0,
      created_at: now,
    });
    await insertFoldStates(trx, "risk_states", folds?.stateRows(seasonId, asOf, now) ?? []);
    return {
      readings: readingsToStore.length,
      rows: rowsToStore.length,
      capital: capitalToStore.length,
      leaves,
    };
  });
  if (written === undefined) return undefined;
  if (storage !== "every-hour") {
    // Every seal read this hour is the vault's carried one or was stored (and its leaf found) just now.
    const leafOf = (carried: CarriedVault | undefined, seal: string, k?: number) =>
      carriedLeaf(carried, seal, k) ?? written.leaves.get(seal)!;
    const sealed = new Map<string, SealedVault>();
    const vaultsNow = new Map<string, CarriedVault>();
    agents.forEach((a, i) => {
      const x = read[i];
      const carried = last?.vaults.get(a.id);
      const kept = x ?? sealedBefore?.get(a.id);
      if (kept !== undefined) sealed.set(a.id, kept);
      vaultsNow.set(
        a.id,
        x === undefined
          ? carried!
          : {
              readingSeals: x.readings.map((r) => r.seal),
              readingLeaves: x.readings.map((r, k) => leafOf(carried, r.seal, k)),
              rowSeal: x.seal,
              rowLeaf: leafOf(carried, x.seal),
              tvl: vaults[i]!.tvl_usd,
            },
      );
    });
    storage.remember(
      seasonId,
      {
        hour: asOf,
        vaults: vaultsNow,
        inputs: {
          summaries: new Map(agents.map((a, i) => [a.id, vaults[i]!])),
          sources: new Map(agents.map((a, i) => [a.id, sources[i]!])),
          crowd,
          sealed,
        },
      },
      {
        read: read.filter((x) => x !== undefined).length,
        kept: read.filter((x) => x === undefined).length,
        readings: written.readings,
        rows: written.rows,
        capital: written.capital,
      },
    );
  }
  return agents.length;
}

/** A reading or row to store, with its leaf when the vault's last stored one had the same seal. */
interface Stored<T> {
  readonly x: T;
  readonly leaf: number | undefined;
}

/** The leaf of the vault's last stored row (k: reading k) when its seal is `seal`, else undefined. */
function carriedLeaf(carried: CarriedVault | undefined, seal: string, k?: number): number | undefined {
  if (carried === undefined) return undefined;
  if (k === undefined) return carried.rowSeal === seal ? carried.rowLeaf : undefined;
  return carried.readingSeals[k] === seal ? carried.readingLeaves[k] : undefined;
}

/** The instruments whose crowd totals (long or short USD) differ between two hours. */
function movedInstruments(before: Crowd, now: Crowd): Set<string> {
  const moved = new Set<string>();
  for (const [instrument, t] of now) {
    const b = before.get(instrument);
    if (b === undefined || b.long !== t.long || b.short !== t.short) moved.add(instrument);
  }
  return moved;
}
