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
  type VaultSummary,
} from "@augur/scorer";
import { agentBook } from "./books";
import type { RiskFolds } from "./folds";
import { DECLARED_VENUE, measuredVenue, type MeasuredVenue } from "./measured";
import { riskVault } from "./view";
import { seasonAgents } from "../store/queries/agents";
import type { Store } from "../store/open";
import { seasonRecords } from "../store/queries/records";
import { leafIndicesOf } from "../store/queries/log-leaves";
import { insertRiskReadings, insertRiskRows } from "../store/queries/risk";
import { findSeason } from "../store/queries/seasons";
import { hasSeasonRowsAt } from "../store/queries/scores";
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

/**
 * Computes, seals and stores every agent-vault's six component readings and risk row of a season as of `asOf` from the
 * records below the anchored tree size (as scores are), appending the new seals to the log so the
 * next anchor covers them. Returns the row count, or undefined when the season already has rows
 * at `asOf` (or no anchored agents). Risk rows are not `records` (that table's
 * kinds are fixed by migration 001): the sealed text lives in `risk_rows.body`, the seal in the log.
 * The records come decoded from `cache` (after scoring, the same hour's rows are already read);
 * each agent's vault is derived from its own rows, one agent at a time: with `folds`, from the
 * agent's fold advanced by its rows since the last hour (the same readings: risk/folds.ts), else
 * from its whole book. The folds to keep are stored in risk_states in the same transaction.
 */
export async function sealSeasonRisk(
  store: Store,
  seasonId: string,
  asOf: number,
  anchoredSize: number,
  now: number,
  cache: SeasonRowCache,
  folds?: RiskFolds,
): Promise<number | undefined> {
  const db = store.db;
  if (await hasSeasonRowsAt(db, "risk_rows", seasonId, asOf)) return undefined;
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
  const vaults: VaultSummary[] = [];
  const venues: MeasuredVenue[] = [];
  for (const a of agents) {
    const venue = measured ? await venueOf(store, seasonId, a.id, anchoredSize, asOf) : DECLARED_VENUE;
    venues.push(venue);
    let records = season.of(a.id);
    let vault = folds?.vault(seasonId, a.id, records, asOf, venue.venue);
    if (vault === undefined && !records.complete) {
      // The rows start after what the agent's fold saw (or it has none): read its whole history.
      records = await season.complete(store, a.id);
      vault = folds?.vault(seasonId, a.id, records, asOf, venue.venue);
    }
    if (vault === undefined) records.claim("risk", { snapshots: 0, trades: 0 }); // the whole book, again next hour
    vaults.push(vault ?? summariseVault(riskVault(agentBook(a.id, records), asOf, venue.venue)));
  }
  const crowd = buildCrowd(vaults);
  // Each component published on its own; the row is computed from those readings and nothing else.
  const readings = vaults.map((v, i) =>
    readSummaryComponents(v, crowd, venues[i]!.sources).map((r) => ({
      r,
      body: canonicalJson(componentReadingRecord(r)),
      seal: sealComponentReading(r),
    })),
  );
  const rows = readings.map((rs) => rowFromReadings(rs.map((x) => x.r)));
  const sealed = rows.map((row, i) => ({
    row,
    tvl: vaults[i]!.tvl_usd,
    body: canonicalJson(riskRowRecord(row)),
    seal: sealRiskRow(row),
  }));
  return db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    // Re-check under the writer lock: a concurrent cycle may have written this hour meanwhile.
    if (await hasSeasonRowsAt(trx, "risk_rows", seasonId, asOf)) return undefined;
    // An unchanged row seals the same as last hour: its leaf is reused, not appended again.
    const seals = [...readings.flat(), ...sealed].map((s) => s.seal);
    const leaves = await leafIndicesOf(trx, seals);
    const fresh = [...new Set(seals.filter((seal) => !leaves.has(seal)))];
    const first = await store.log.append(trx, fresh, now);
    fresh.forEach((seal, i) => leaves.set(seal, first + i));
    const values = sealed.map((s) => ({
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
    }));
    await insertRiskReadings(
      trx,
      readings.flat().map((x) => ({
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
    await insertRiskRows(trx, values);
    await insertFoldStates(trx, "risk_states", folds?.stateRows(seasonId, asOf, now) ?? []);
    return values.length;
  });
}
