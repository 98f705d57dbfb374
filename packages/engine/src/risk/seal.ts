import type { MeasuredSnapshotBody } from "@augur/records";
import {
  buildCrowd,
  canonicalJson,
  componentReadingRecord,
  readSummaryComponents,
  riskRowRecord,
  rowFromReadings,
  sealComponentReading,
  sealRiskRow,
  summariseVault,
  type ComponentReading,
  type ComponentSources,
  type Crowd,
  type Hex32,
  type RiskRow,
  type VaultSummary,
} from "@augur/scorer";
import { agentBook } from "./books";
import { riskCadence, type RiskCadence } from "./cadence";
import type { RiskFolds } from "./folds";
import { DECLARED_VENUE, measuredVenue, type MeasuredVenue } from "./measured";
import { riskVault } from "./view";
import { seasonAgents } from "../store/queries/agents";
import type { Store } from "../store/open";
import { seasonRecords } from "../store/queries/records";
import { leafIndicesOf } from "../store/queries/log-leaves";
import { hasRiskHour, insertRiskHour, insertRiskReadings, insertRiskRows } from "../store/queries/risk";
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

/** One vault's readings and row as read this hour, sealed. */
interface ReadVault {
  readonly readings: ReadonlyArray<{ r: ComponentReading; body: string; seal: Hex32 }>;
  readonly row: RiskRow;
  readonly body: string;
  readonly seal: Hex32;
}

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
  // Each component published on its own; the row is computed from those readings and nothing else.
  const read = vaults.map((v, i): ReadVault | undefined => {
    if (steady[i] && !v.holdings?.some((h) => moved!.has(h.instrument))) return undefined;
    const readings = readSummaryComponents(v, crowd, sources[i]).map((r) => ({
      r,
      body: canonicalJson(componentReadingRecord(r)),
      seal: sealComponentReading(r),
    }));
    const row = rowFromReadings(readings.map((x) => x.r));
    return { readings, row, body: canonicalJson(riskRowRecord(row)), seal: sealRiskRow(row) };
  });
  // What to store: everything at a full hour, else what changed since the vault's last stored.
  const storeAll = full || storage === "every-hour";
  const readingsToStore = read.flatMap((x, i) =>
    x === undefined
      ? []
      : x.readings.filter((r, k) => storeAll || r.seal !== last!.vaults.get(agents[i]!.id)!.readingSeals[k]),
  );
  const rowsToStore = read.flatMap((x, i) => {
    if (x === undefined) return [];
    const carried = last?.vaults.get(agents[i]!.id);
    const tvl = vaults[i]!.tvl_usd;
    return storeAll || x.seal !== carried!.rowSeal || tvl !== carried!.tvl ? [{ ...x, tvl }] : [];
  });
  const written = await db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    // Re-check under the writer lock: a concurrent cycle may have written this hour meanwhile.
    if (await hasRiskHour(trx, seasonId, asOf)) return undefined;
    // A seal already in the log (an earlier hour's identical reading or row) keeps its leaf.
    const seals = [...readingsToStore, ...rowsToStore].map((s) => s.seal);
    const leaves = await leafIndicesOf(trx, seals);
    const fresh = [...new Set(seals.filter((seal) => !leaves.has(seal)))];
    const first = await store.log.append(trx, fresh, now);
    fresh.forEach((seal, i) => leaves.set(seal, first + i));
    await insertRiskReadings(
      trx,
      readingsToStore.map((x) => ({
        season_id: seasonId,
        as_of: asOf,
        vault_id: x.r.vault_id,
        component: x.r.component,
        reading: x.r.reading,
        reason: x.r.reason,
        body: x.body,
        seal: x.seal,
        leaf_index: leaves.get(x.seal)!,
        created_at: now,
      })),
    );
    await insertRiskRows(
      trx,
      rowsToStore.map((s) => ({
        season_id: seasonId,
        as_of: asOf,
        vault_id: s.row.vault_id,
        score: s.row.score,
        reason: s.row.reason,
        measurable_share: s.row.measurable_share,
        components: JSON.stringify(s.row.components),
        tvl_usd: s.tvl,
        body: s.body,
        seal: s.seal,
        leaf_index: leaves.get(s.seal)!,
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
    return { readings: readingsToStore.length, rows: rowsToStore.length };
  });
  if (written === undefined) return undefined;
  if (storage !== "every-hour")
    storage.remember(
      seasonId,
      {
        hour: asOf,
        vaults: new Map(
          agents.map((a, i) => {
            const x = read[i];
            const carried = last?.vaults.get(a.id);
            return [
              a.id,
              x === undefined
                ? carried!
                : { readingSeals: x.readings.map((r) => r.seal), rowSeal: x.seal, tvl: vaults[i]!.tvl_usd },
            ];
          }),
        ),
        inputs: {
          summaries: new Map(agents.map((a, i) => [a.id, vaults[i]!])),
          sources: new Map(agents.map((a, i) => [a.id, sources[i]!])),
          crowd,
        },
      },
      {
        read: read.filter((x) => x !== undefined).length,
        kept: read.filter((x) => x === undefined).length,
        ...written,
      },
    );
  return agents.length;
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
