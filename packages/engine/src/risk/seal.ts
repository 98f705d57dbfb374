import { canonicalJson, riskRowRecord, scoreVaults, sealRiskRow } from "@augur/scorer";
import { agentBook } from "./books";
import { riskVault } from "./view";
import { seasonAgents } from "../store/queries/agents";
import type { Store } from "../store/open";
import { insertRiskRows } from "../store/queries/risk";
import { hasSeasonRowsAt } from "../store/queries/scores";
import type { SeasonRowCache } from "../store/season-rows";

/**
 * Computes, seals and stores every agent-vault's risk row of a season as of `asOf` from the
 * records below the anchored tree size (as scores are), appending the new seals to the log so the
 * next anchor covers them. Returns the row count, or undefined when the season already has rows
 * at `asOf` (or no anchored agents). Risk rows are not `records` (that table's
 * kinds are fixed by migration 001): the sealed text lives in `risk_rows.body`, the seal in the log.
 * The records come decoded from `cache` (after scoring, the same hour's rows are already read);
 * each agent's vault is derived from its own rows, one agent at a time.
 */
export async function sealSeasonRisk(
  store: Store,
  seasonId: string,
  asOf: number,
  anchoredSize: number,
  now: number,
  cache: SeasonRowCache,
): Promise<number | undefined> {
  const db = store.db;
  if (await hasSeasonRowsAt(db, "risk_rows", seasonId, asOf)) return undefined;
  const agents = await seasonAgents(db, seasonId, anchoredSize);
  if (agents.length === 0) return undefined;
  const season = (await cache.season(seasonId, anchoredSize, asOf)).rows;
  const vaults = agents.map((a) => riskVault(agentBook(a.id, season.of(a.id)), asOf));
  const { rows } = scoreVaults(vaults);
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
    const leaves = new Map<string, number>();
    for (const s of sealed) {
      const known = await store.log.leafIndexOf(trx, s.seal);
      if (known !== undefined) leaves.set(s.seal, known);
    }
    const fresh = [...new Set(sealed.map((s) => s.seal).filter((seal) => !leaves.has(seal)))];
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
    await insertRiskRows(trx, values);
    return values.length;
  });
}
