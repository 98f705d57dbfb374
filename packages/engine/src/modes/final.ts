import { canonicalJson, seal as sealOf, type Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import type { Store } from "../store/open";
import type { Database } from "../store/schema";
import { latestAnchor } from "../store/queries/anchors";
import { getFinalNotice, insertFinalNotice } from "../store/queries/final-notice";
import { latestModeRecord } from "../store/queries/modes";
import { dayOf } from "./days";
import { FinalNoticeSealedError, NoticeRefusedError } from "./errors";
import { finalAnchorOf } from "./evaluate";
import { checkedReason } from "./records";
import { currentMode } from "./state";
import type { FinalAnchor } from "./timeline";

export const FINAL_NOTICE_FORMAT = "augur-final/v1";

/** The last sealed record: the last words, the final receipt, the archive and its final anchor. */
export interface FinalNoticeBody {
  readonly format: typeof FINAL_NOTICE_FORMAT;
  readonly words: string;
  readonly declared: string;
  /** The seal of the saved final receipt (`augur receipt --save`). */
  readonly receipt: Hex32;
  /** The seal of the `archived` mode record. */
  readonly archived: Hex32;
  /** The anchor covering the whole log, the archived record included. */
  readonly finalAnchor: FinalAnchor;
}

/** Where the final notice's seal goes on chain: `AnchorRegistry.postFinalNotice`, mined. */
export type FinalNoticePoster = (
  seal: Hex32,
) => Promise<{ chainId: number; registry: string; txHash: string; blockNumber: number }>;

/** Refuses anything new once the final notice is sealed: "the accounts … stop". */
export async function assertNotFinal(db: Kysely<Database>): Promise<void> {
  const final = await getFinalNotice(db);
  if (!final) return;
  throw new FinalNoticeSealedError(
    `the final notice ${final.seal} is sealed (posted in ${final.tx_hash}): nothing is sealed after it`,
    { seal: final.seal },
  );
}

/**
 * The archive's last step: seals the final notice (the last words, the saved receipt's seal, the
 * archived record and the final anchor), posts its seal on chain and stores it. Refused before
 * the archive, without a saved receipt, while the log has leaves no anchor covers, and once a
 * final notice exists. Nothing is sealed after it.
 */
export async function sealFinalNotice(
  store: Store,
  args: { readonly words: string; readonly now: number; readonly post: FinalNoticePoster },
): Promise<{ seal: Hex32; body: FinalNoticeBody }> {
  const db = store.db;
  await assertNotFinal(db);
  const words = checkedReason(args.words, "words");
  const mode = await currentMode(db);
  if (mode.mode !== "archived" || !mode.seal) {
    throw new NoticeRefusedError(`the final notice follows the archive; the system is ${mode.mode}`, {
      mode: mode.mode,
    });
  }
  const receipt = await latestModeRecord(db, "receipt");
  if (!receipt) {
    throw new NoticeRefusedError(
      "the final notice names the final receipt: save one first (augur receipt … --save)",
    );
  }
  const anchor = await latestAnchor(db);
  const size = await store.log.size(db);
  if (!anchor || anchor.tree_size !== size) {
    throw new NoticeRefusedError(
      `the final notice names the anchor of the whole log: ${size} leaves, anchored ${anchor?.tree_size ?? 0}`,
      { size, anchored: anchor?.tree_size ?? 0 },
    );
  }
  const today = dayOf(args.now);
  const body: FinalNoticeBody = {
    format: FINAL_NOTICE_FORMAT,
    words,
    declared: today,
    receipt: receipt.seal as Hex32,
    archived: mode.seal,
    finalAnchor: finalAnchorOf(anchor, today),
  };
  const seal = sealOf(body);
  const posted = await args.post(seal);
  await insertFinalNotice(db, {
    body: canonicalJson(body),
    seal,
    chain_id: posted.chainId,
    registry: posted.registry.toLowerCase(),
    tx_hash: posted.txHash.toLowerCase(),
    block_number: posted.blockNumber,
    created_at: args.now,
  });
  return { seal, body };
}
