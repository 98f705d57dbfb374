import { canonicalJson, seal as sealOf, type Hex32 } from "@augur/scorer";
import type { Kysely, Selectable } from "kysely";
import { merkleLog as log } from "../merkle/log-store";
import type { Database, ModeRecordKind, ModeRecordsTable } from "../schema";

export type StoredModeRecord = Selectable<ModeRecordsTable>;

/**
 * Seals `body` and stores it as the next mode record, appending its seal to the log (except a
 * receipt), inside the caller's transaction after taking the log's writer lock. A body already
 * stored (same seal) is not stored twice: its row is returned with `created: false`.
 */
export async function appendModeRecord(
  trx: Kysely<Database>,
  record: { readonly kind: ModeRecordKind; readonly day: string; readonly body: unknown },
  now: number,
): Promise<{ seal: Hex32; seq: number; leafIndex: number | null; created: boolean }> {
  await log.lockForAppend(trx);
  const seal = sealOf(record.body);
  const known = await trx.selectFrom("mode_records").selectAll().where("seal", "=", seal).executeTakeFirst();
  if (known) return { seal, seq: known.seq, leafIndex: known.leaf_index, created: false };
  const last = await trx
    .selectFrom("mode_records")
    .select((eb) => eb.fn.max<number | null>("seq").as("seq"))
    .executeTakeFirst();
  const seq = last?.seq == null ? 0 : Number(last.seq) + 1;
  const leafIndex = record.kind === "receipt" ? null : await log.append(trx, [seal], now);
  await trx
    .insertInto("mode_records")
    .values({
      seq,
      kind: record.kind,
      day: record.day,
      body: canonicalJson(record.body),
      seal,
      leaf_index: leafIndex,
      created_at: now,
    })
    .execute();
  return { seal, seq, leafIndex, created: true };
}

/** Every mode record of `kind` (or of every kind), in write order. */
export async function listModeRecords(
  db: Kysely<Database>,
  kind?: ModeRecordKind,
): Promise<StoredModeRecord[]> {
  let query = db.selectFrom("mode_records").selectAll();
  if (kind) query = query.where("kind", "=", kind);
  return query.orderBy("seq", "asc").execute();
}

/** The newest record of `kind`, or undefined. */
export async function latestModeRecord(
  db: Kysely<Database>,
  kind: ModeRecordKind,
): Promise<StoredModeRecord | undefined> {
  return db
    .selectFrom("mode_records")
    .selectAll()
    .where("kind", "=", kind)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
}
