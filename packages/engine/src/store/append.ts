import { canonicalJson, sealText, type Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { insertBatched, parameterBatches } from "./batch";
import { merkleLog as log } from "./merkle/log-store";
import { storedBody, storeFormulas } from "./record-bodies";
import type { Database, RecordKind } from "./schema";

/** A record the engine itself produces (score manifest, call): no signature, sealed as is. */
export interface EngineRecord {
  readonly kind: RecordKind;
  readonly agentId: string;
  readonly seasonId: string;
  readonly body: unknown;
  /** Optional: `canonicalJson(body)` when its producer already built it (sealed as given, not rebuilt). */
  readonly text?: string;
  /** Optional, with `text`: its sha256 when the producer already hashed it (stored as given, not hashed again). */
  readonly seal?: Hex32;
}

/**
 * Seals engine records and appends the new ones to the records table and the log, inside the
 * caller's transaction (taking the log's writer lock). Records already stored are skipped, so a
 * retried step appends nothing twice. Returns each record's seal and leaf index, in input order.
 * `unseen`: the caller knows none is stored yet (the score step, which checked its hour under the
 * writer lock), so the seals are not looked up first; one that is stored after all is refused by
 * the log's unique seal index and the transaction fails, nothing half-written.
 */
export async function appendEngineRecords(
  trx: Kysely<Database>,
  records: readonly EngineRecord[],
  now: number,
  options: { unseen?: boolean } = {},
): Promise<Array<{ seal: Hex32; leafIndex: number; created: boolean }>> {
  await log.lockForAppend(trx);
  const sealed = records.map((r) => {
    const text = r.text ?? canonicalJson(r.body);
    return { ...r, text, seal: r.text !== undefined && r.seal !== undefined ? r.seal : sealText(text) };
  });
  const known = new Map<string, number>();
  for (const batch of options.unseen ? [] : parameterBatches(sealed, 1)) {
    const rows = await trx
      .selectFrom("records")
      .select(["seal", "leaf_index"])
      .where(
        "seal",
        "in",
        batch.map((r) => r.seal),
      )
      .execute();
    for (const row of rows) known.set(row.seal, row.leaf_index);
  }
  const seen = new Set<string>(known.keys());
  const fresh = sealed.filter((r) => !seen.has(r.seal) && seen.add(r.seal) !== undefined);
  const first = await log.append(
    trx,
    fresh.map((r) => r.seal),
    now,
  );
  const split = fresh.map((r) => storedBody(r.text, r.body));
  await storeFormulas(
    trx,
    split.flatMap((s) => (s.formula ? [s.formula] : [])),
  );
  const rows = fresh.map((r, i) => ({
    seal: r.seal,
    kind: r.kind,
    agent_id: r.agentId,
    season_id: r.seasonId,
    body: split[i]!.body,
    formula_seal: split[i]!.formula_seal,
    signer: null,
    signature: null,
    cosignature: null,
    leaf_index: first + i,
    received_at: now,
  }));
  await insertBatched(trx, "records", rows);
  const created = new Map<string, number>(rows.map((r) => [r.seal, r.leaf_index]));
  const reported = new Set<string>();
  return sealed.map((r) => {
    const isNew = created.has(r.seal) && !reported.has(r.seal);
    reported.add(r.seal);
    return { seal: r.seal, leafIndex: created.get(r.seal) ?? known.get(r.seal)!, created: isNew };
  });
}
