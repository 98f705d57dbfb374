import { seal } from "@augur/scorer";
import { HOUR_SECONDS } from "../closes/record";
import { sealRefereeBoard } from "./board";
import { epochInput } from "./input";
import type { Store } from "../store/open";
import type { Anchor } from "../store/queries/anchors";
import { hasRefereeBoard, insertRefereeBoard, latestRefereeInputSeal } from "../store/queries/referee-boards";
import type { Season } from "../store/queries/seasons";

/**
 * How long after a season's close its board is still refreshed: CallLedger's longest window
 * (24 h) plus a day for the call to be settled, confirmed and sealed by the indexer. A call
 * revealed just before the close only becomes a scored prediction then; stopping at the close
 * (as scoring does) would leave it pending on the final board forever.
 */
export const REFEREE_TAIL_SECONDS = 48 * HOUR_SECONDS;

/** What the referee step did for one season. */
export type RefereeBoardOutcome =
  | { readonly sealed: true; readonly seal: string; readonly agents: number }
  | { readonly sealed: false; readonly reason: "already" | "unanchored" | "unchanged" };

/**
 * Computes the season's referee board as of `asOf` from the closes and calls below the anchored
 * tree size (as scores read only anchored records, so anyone can rebuild the input from anchored
 * data), seals it and stores it, appending the seal to the log so the next anchor covers it.
 * Once per (season, hour); nothing new when the input is the one the latest board already used
 * (same seal), since the board would only restate it.
 */
export async function sealSeasonReferee(
  store: Store,
  season: Season,
  asOf: number,
  anchor: Anchor | undefined,
  now: number,
): Promise<RefereeBoardOutcome> {
  const db = store.db;
  if (await hasRefereeBoard(db, season.id, asOf)) return { sealed: false, reason: "already" };
  if (!anchor) return { sealed: false, reason: "unanchored" };
  const { input, waitingCalls, window } = await epochInput(db, season, anchor.tree_size);
  const inputSeal = seal(input);
  if ((await latestRefereeInputSeal(db, season.id)) === inputSeal)
    return { sealed: false, reason: "unchanged" };
  const board = sealRefereeBoard(
    input,
    {
      epoch: season.id,
      asOf,
      anchor: { anchorIndex: anchor.anchor_index, treeSize: anchor.tree_size, root: anchor.root },
      window,
      waitingCalls,
    },
    inputSeal,
  );
  return db.transaction().execute(async (trx): Promise<RefereeBoardOutcome> => {
    await store.log.lockForAppend(trx);
    // Re-check under the writer lock: a concurrent cycle may have written this hour meanwhile.
    if (await hasRefereeBoard(trx, season.id, asOf)) return { sealed: false, reason: "already" };
    const leaf = await store.log.append(trx, [board.seal], now);
    await insertRefereeBoard(trx, {
      season_id: season.id,
      as_of: asOf,
      log_size: anchor.tree_size,
      input_seal: inputSeal,
      body: board.text,
      seal: board.seal,
      leaf_index: leaf,
      created_at: now,
    });
    return { sealed: true, seal: board.seal, agents: board.body.leaderboard.agents.length };
  });
}
