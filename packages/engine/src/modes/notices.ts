import type { Hex32 } from "@augur/scorer";
import type { Store } from "../store/open";
import { appendModeRecord } from "../store/queries/modes";
import { describeMode } from "./describe";
import { NoticeRefusedError } from "./errors";
import type { MethodologyNoticeBody, ModeNoticeBody } from "./records";
import { currentMode } from "./state";
import { isFinalMode } from "./timeline";

/**
 * Stores a sealed notice (its seal joins the log, so the next anchor publishes it). Refused once
 * the system winds down: wind-down is final, and a methodology for scores that will never be
 * computed would be an empty promise. The mode is read under the log's writer lock, so a
 * concurrent cycle cannot wind down in between.
 */
export async function writeNotice(
  store: Store,
  kind: "notice" | "methodology",
  day: string,
  body: ModeNoticeBody | MethodologyNoticeBody,
  now: number,
): Promise<{ seal: Hex32; leafIndex: number }> {
  return store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    const state = await currentMode(trx);
    if (isFinalMode(state.mode)) {
      throw new NoticeRefusedError(`refused: the system is ${describeMode(state)}; no notice can change it`, {
        mode: state.mode,
      });
    }
    const result = await appendModeRecord(trx, { kind, day, body }, now);
    return { seal: result.seal, leafIndex: result.leafIndex! };
  });
}
