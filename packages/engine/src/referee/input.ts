import { formatIsoHour, type RefereeInput, type RefereePrediction } from "@augur/scorer";
import type { Kysely } from "kysely";
import { HOUR_SECONDS } from "../closes/record";
import { callTerms } from "../records/call-terms";
import { closesBetween } from "../store/queries/closes";
import type { Season } from "../store/queries/seasons";
import type { Database } from "../store/schema";
import { type MappedPrediction, predictionOf } from "./predictions";

/** The referee's input file for one epoch, and the calls it had to leave out for now. */
export interface EpochInput {
  /** The pinned input file (`augur referee … --input`), ready to write as JSON. */
  readonly input: RefereeInput;
  /** Revealed calls whose slot hour has no cached close (yet): not in `input.predictions`. */
  readonly waitingCalls: number;
}

/**
 * Builds the referee's input for an epoch (a season) from the store: every revealed call sealed
 * in the season (in log order) mapped by `predictionOf`, and the cached closes of the pairs they
 * name, from the season's start (or the earliest slot, if earlier) to its end (or the latest
 * slot + horizon, if later). A call whose slot has no close is left out until it has one: the
 * pinned format requires the slot's close.
 */
export async function epochInput(db: Kysely<Database>, season: Season): Promise<EpochInput> {
  const rows = await db
    .selectFrom("records")
    .select(["agent_id", "body"])
    .where("season_id", "=", season.id)
    .where("kind", "=", "call")
    .orderBy("leaf_index")
    .execute();
  const mapped = rows
    .map((r) => predictionOf(r.agent_id, callTerms(r.body)))
    .filter((p): p is MappedPrediction => p !== undefined);
  let from = season.starts_at;
  let to = season.ends_at;
  for (const p of mapped) {
    from = Math.min(from, p.slotAt);
    to = Math.max(to, p.slotAt + p.horizon_h * HOUR_SECONDS);
  }
  const named = new Set(mapped.map((p) => p.pair));
  const closes = new Map<string, Map<number, number>>();
  for (const c of mapped.length === 0 ? [] : await closesBetween(db, from, to)) {
    if (!named.has(c.asset)) continue;
    const series = closes.get(c.asset) ?? new Map<number, number>();
    series.set(Number(c.at), c.close);
    closes.set(c.asset, series);
  }
  const predictions: RefereePrediction[] = [];
  for (const p of mapped) {
    if (!closes.get(p.pair)?.has(p.slotAt)) continue;
    const { slotAt: _slotAt, ...prediction } = p;
    predictions.push(prediction);
  }
  const used = new Set(predictions.map((p) => p.pair));
  const pairs = [...closes.keys()].filter((pair) => used.has(pair)).sort();
  return {
    input: {
      epoch: season.id,
      closes: Object.fromEntries(
        pairs.map((pair) => [
          pair,
          [...closes.get(pair)!].map(([at, close]) => ({ at: formatIsoHour(at / HOUR_SECONDS), close })),
        ]),
      ),
      predictions,
    },
    waitingCalls: mapped.length - predictions.length,
  };
}
