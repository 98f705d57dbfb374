import { formatIsoHour, type RefereeInput, type RefereePrediction } from "@augur/scorer";
import type { Kysely } from "kysely";
import { HOUR_SECONDS } from "../closes/record";
import { callTerms, latestPerCall } from "@augur/records";
import { closesBetween } from "../store/queries/closes";
import { seasonRecords } from "../store/queries/records";
import type { Season } from "../store/queries/seasons";
import type { Database } from "../store/schema";
import { type MappedPrediction, predictionOf } from "./predictions";

/** The hours whose closes enter an epoch's file (unix seconds, both ends included). */
export interface CloseWindow {
  readonly from: number;
  readonly to: number;
}

/** The referee's input file for one epoch, and the calls it had to leave out for now. */
export interface EpochInput {
  /** The pinned input file (`augur referee … --input`), ready to write as JSON. */
  readonly input: RefereeInput;
  /** Revealed calls whose slot hour has no cached close (yet): not in `input.predictions`. */
  readonly waitingCalls: number;
  /** The hours the file's closes were read from: stored with a board, so its input can be rebuilt. */
  readonly window: CloseWindow;
}

/** The season's revealed calls below `logSize` (all, or one agent's), in log order, as predictions. */
async function mappedCalls(
  db: Kysely<Database>,
  seasonId: string,
  logSize: number,
  agent?: string,
): Promise<MappedPrediction[]> {
  // A call's reveal record already says everything the referee reads: open calls count too.
  const rows = latestPerCall(await seasonRecords(db, seasonId, ["call"], agent, logSize), (r) => r.body);
  return rows
    .map((r) => predictionOf(r.agent_id, callTerms(r.body)))
    .filter((p): p is MappedPrediction => p !== undefined);
}

/** The season's window (start to end), widened to every slot and slot + horizon. */
function windowOf(
  season: Pick<Season, "starts_at" | "ends_at">,
  mapped: readonly MappedPrediction[],
): CloseWindow {
  let from = season.starts_at;
  let to = season.ends_at;
  for (const p of mapped) {
    from = Math.min(from, p.slotAt);
    to = Math.max(to, p.slotAt + p.horizon_h * HOUR_SECONDS);
  }
  return { from, to };
}

/**
 * The file from the mapped calls and the closes of the pairs they name within `window` below
 * `logSize`. A call whose slot has no close is left out until it has one: the pinned format
 * requires the slot's close.
 */
async function assemble(
  db: Kysely<Database>,
  epoch: string,
  mapped: readonly MappedPrediction[],
  logSize: number,
  window: CloseWindow,
): Promise<EpochInput> {
  const named = [...new Set(mapped.map((p) => p.pair))].sort();
  const closes = new Map<string, Map<number, number>>();
  for (const c of await closesBetween(db, window.from, window.to, { belowLeaf: logSize, assets: named })) {
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
      epoch,
      closes: Object.fromEntries(
        pairs.map((pair) => [
          pair,
          [...closes.get(pair)!].map(([at, close]) => ({ at: formatIsoHour(at / HOUR_SECONDS), close })),
        ]),
      ),
      predictions,
    },
    waitingCalls: mapped.length - predictions.length,
    window,
  };
}

/**
 * Builds the referee's input for an epoch (a season) from the sealed rows below `logSize` (an
 * anchored tree size, so the file is reproducible from anchored data): every revealed call sealed
 * in the season (in log order) mapped by `predictionOf`, and the cached closes of the pairs they
 * name, from the season's start (or the earliest slot, if earlier) to its end (or the latest
 * slot + horizon, if later).
 */
export async function epochInput(
  db: Kysely<Database>,
  season: Pick<Season, "id" | "starts_at" | "ends_at">,
  logSize: number,
): Promise<EpochInput> {
  const mapped = await mappedCalls(db, season.id, logSize);
  return assemble(db, season.id, mapped, logSize, windowOf(season, mapped));
}

/**
 * A stored board's input rebuilt from its log size and window (whatever the season's dates say
 * since): the same rows, append-only, so the same file. With `agent`, only that agent's
 * predictions and the closes of its pairs: the referee of that file gives the agent exactly its
 * result in the whole file (mu depends only on the pair's closes, the monkeys only on the agent's
 * own schedule and the cohort seed), which keeps a request to one agent's 2,048 monkeys.
 */
export async function storedInput(
  db: Kysely<Database>,
  epoch: string,
  logSize: number,
  window: CloseWindow,
  agent?: string,
): Promise<EpochInput> {
  return assemble(db, epoch, await mappedCalls(db, epoch, logSize, agent), logSize, window);
}
