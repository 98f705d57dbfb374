import { recordBody } from "../record-bodies";
import { preparedInsert, preparedQuery } from "../prepared";
import type { Kysely, Selectable } from "kysely";
import type { Database, RecordKind, RecordMomentsTable, RecordsTable } from "../schema";

/** A record as served: `body` its whole canonical text (rebuilt when stored split, record-bodies.ts). */
export type RecordRow = Omit<Selectable<RecordsTable>, "formula_seal">;

const RECORD_COLUMNS = [
  "seal",
  "kind",
  "agent_id",
  "season_id",
  "body",
  "signer",
  "signature",
  "cosignature",
  "leaf_index",
  "received_at",
] as const satisfies readonly (keyof RecordRow)[];

const recordBySeal = preparedQuery(
  (db, seal: string) =>
    db
      .selectFrom("records")
      .select([...RECORD_COLUMNS.filter((c) => c !== "body"), recordBody().as("body")])
      .where("seal", "=", seal),
  1,
);

export async function findRecord(db: Kysely<Database>, seal: string): Promise<RecordRow | undefined> {
  const [row] = await recordBySeal(db, seal);
  return row as RecordRow | undefined;
}

const recordInsert = preparedInsert("records", RECORD_COLUMNS);

/** Inserts one sealed record; its leaf must already be in the log (same transaction). */
export async function insertRecord(db: Kysely<Database>, row: RecordRow): Promise<void> {
  await recordInsert(db, row);
}

/**
 * The stored manifest text of each seal. Read for one page only, after the page is chosen:
 * joining before the LIMIT would read every manifest of the hour.
 */
export async function manifestTexts(
  db: Kysely<Database>,
  seals: readonly string[],
): Promise<Map<string, string>> {
  if (seals.length === 0) return new Map();
  const rows = await db
    .selectFrom("records")
    .select(["seal", recordBody().as("body")])
    .where("seal", "in", [...seals])
    .execute();
  return new Map(rows.map((r) => [r.seal, r.body]));
}

export interface StoredRecord {
  readonly agent_id: string;
  readonly kind: RecordKind;
  readonly seal: string;
  readonly body: string;
}

/**
 * Records of a season (one agent's when given), in log order; with `belowLeaf`, only those below
 * that tree size (the cycle reads anchored records only, so what it seals can be rechecked).
 */
export async function seasonRecords(
  db: Kysely<Database>,
  seasonId: string,
  kinds: readonly RecordKind[],
  agentId?: string,
  belowLeaf?: number,
): Promise<StoredRecord[]> {
  let query = db
    .selectFrom("records")
    .select(["agent_id", "kind", "seal", recordBody().as("body")])
    .where("season_id", "=", seasonId)
    .where("kind", "in", [...kinds]);
  if (agentId !== undefined) query = query.where("agent_id", "=", agentId);
  if (belowLeaf !== undefined) query = query.where("leaf_index", "<", belowLeaf);
  return query.orderBy("leaf_index").execute();
}

/**
 * A prepared query for the records of `kinds` with leaf indexes in [from, below), in log order,
 * at most `limit` (one page; the caller keeps the rows it wants). The season is deliberately not
 * in the WHERE clause: SQLite (no statistics) would then walk the season's whole
 * `records_by_agent` range and sort it for every page, where the leaf index's range scan reads
 * just the page, and every new hour just that hour.
 */
export function recordsByLeafPage(kinds: readonly RecordKind[], limit: number) {
  return preparedQuery(
    (db, from: number, below: number) =>
      db
        .selectFrom("records")
        .select(["season_id", "agent_id", "kind", "seal", "leaf_index", recordBody().as("body")])
        .where("kind", "in", [...kinds])
        .where("leaf_index", ">=", from)
        .where("leaf_index", "<", below)
        .orderBy("leaf_index")
        .limit(limit),
    2,
  );
}

export type RecordMomentRow = Selectable<RecordMomentsTable>;

/** The seal already standing for an agent's record of `kind` at `moment`, if any. */
const sealAtMoment = preparedQuery(
  (db, seasonId: string, agentId: string, kind: RecordKind, moment: number) =>
    db
      .selectFrom("record_moments")
      .select("seal")
      .where("season_id", "=", seasonId)
      .where("agent_id", "=", agentId)
      .where("kind", "=", kind)
      .where("moment", "=", moment),
  4,
);

export async function findRecordAtMoment(
  db: Kysely<Database>,
  key: Omit<RecordMomentRow, "seal">,
): Promise<string | undefined> {
  const [row] = await sealAtMoment(db, key.season_id, key.agent_id, key.kind, key.moment);
  return row?.seal;
}

const momentInsert = preparedInsert("record_moments", ["season_id", "agent_id", "kind", "moment", "seal"]);

/** Claims the moment for a record (same transaction as the record); the primary key refuses a second. */
export async function insertRecordMoment(db: Kysely<Database>, row: RecordMomentRow): Promise<void> {
  await momentInsert(db, row);
}
