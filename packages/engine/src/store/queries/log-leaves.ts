import { recordBody } from "../record-bodies";
import type { Kysely } from "kysely";
import { parameterBatches } from "../batch";
import type { Database, RecordKind } from "../schema";

/** One leaf of the log with what it seals: a record's kind, agent and season, or another table's kind. */
export interface LeafRow {
  readonly leaf_index: number;
  readonly seal: string;
  /** A record kind, or `close`, `risk`, `risk_reading`, `retirement`, `referee`, `stewardship`, `mode`, `notice`, `methodology`. */
  readonly kind: string;
  /** The sealed record's agent and season; null for a leaf that is not a record. */
  readonly agent_id: string | null;
  readonly season_id: string | null;
}

/**
 * The leaves in [start, end), in log order, each with the kind of what it seals. Records are
 * joined by leaf index; the few leaves that are not records are looked up by seal in the tables
 * of the other sealed things (closes, risk rows, referee boards, stewardship days, modes).
 */
export async function leavesInRange(db: Kysely<Database>, start: number, end: number): Promise<LeafRow[]> {
  const rows = await db
    .selectFrom("merkle_leaves as l")
    .leftJoin("records as r", "r.leaf_index", "l.leaf_index")
    .select(["l.leaf_index", "l.seal", "r.kind", "r.agent_id", "r.season_id"])
    .where("l.leaf_index", ">=", start)
    .where("l.leaf_index", "<", end)
    .orderBy("l.leaf_index")
    .execute();
  const others = rows.filter((r) => r.kind === null).map((r) => r.seal);
  const kindOf = others.length === 0 ? new Map<string, string>() : await otherKinds(db, others);
  return rows.map((r) => ({
    leaf_index: Number(r.leaf_index),
    seal: r.seal,
    kind: r.kind ?? kindOf.get(r.seal) ?? "unknown",
    agent_id: r.agent_id,
    season_id: r.season_id,
  }));
}

async function otherKinds(db: Kysely<Database>, seals: string[]): Promise<Map<string, string>> {
  const kinds = new Map<string, string>();
  const found = (rows: { seal: string }[], kind: (row: { seal: string }) => string) =>
    rows.forEach((row) => kinds.set(row.seal, kind(row)));
  const tables = [
    ["hourly_closes", "close"],
    ["risk_rows", "risk"],
    ["risk_readings", "risk_reading"],
    ["agent_retirements", "retirement"],
    ["referee_boards", "referee"],
    ["stewardship_days", "stewardship"],
  ] as const;
  for (const [table, kind] of tables)
    found(await db.selectFrom(table).select("seal").where("seal", "in", seals).execute(), () => kind);
  const modes = await db
    .selectFrom("mode_records")
    .select(["seal", "kind"])
    .where("seal", "in", seals)
    .execute();
  for (const m of modes) kinds.set(m.seal, m.kind);
  return kinds;
}

/** An agent's records of `kinds` in a season below a log size, in log order (the order the scorer is fed). */
export async function agentInputRecords(
  db: Kysely<Database>,
  agentId: string,
  seasonId: string,
  kinds: readonly RecordKind[],
  belowLeaf: number,
) {
  return db
    .selectFrom("records")
    .select(["kind", "seal", "leaf_index", recordBody().as("body")])
    .where("season_id", "=", seasonId)
    .where("agent_id", "=", agentId)
    .where("kind", "in", [...kinds])
    .where("leaf_index", "<", belowLeaf)
    .orderBy("leaf_index")
    .execute();
}

/** The leaf index of each of `seals` the log already holds (one query per parameter batch, not per seal). */
export async function leafIndicesOf(
  db: Kysely<Database>,
  seals: readonly string[],
): Promise<Map<string, number>> {
  const known = new Map<string, number>();
  for (const batch of parameterBatches([...new Set(seals)], 1)) {
    const rows = await db
      .selectFrom("merkle_leaves")
      .select(["seal", "leaf_index"])
      .where("seal", "in", batch)
      .execute();
    for (const row of rows) known.set(row.seal, Number(row.leaf_index));
  }
  return known;
}
