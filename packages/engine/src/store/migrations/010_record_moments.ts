import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { RECORD_MOMENTS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

const TIME_FIELD: Readonly<Record<string, string>> = {
  snapshot: "takenAt",
  decision: "decidedAt",
  trade: "executedAt",
};
const PAGE = 5000;

/**
 * One signed record per (season, agent, kind, moment): the primary key makes the database refuse
 * a second, different snapshot, decision or trade of an agent for the same time (equivocation).
 * Existing records are entered in log order; of an earlier equivocation only the first is
 * entered (the later one stays in the log, and the cycle scores that agent `invalid_input`).
 */
export function recordMoments(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RECORD_MOMENTS_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull())
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("moment", "bigint", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique().references("records.seal"))
        .addPrimaryKeyConstraint("record_moments_pk", ["season_id", "agent_id", "kind", "moment"])
        .execute();
      await backfill(db as Kysely<Backfill>);
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, RECORD_MOMENTS_TABLE))
        await statement.execute(db);
    },
  };
}

interface Backfill {
  records: {
    seal: string;
    kind: string;
    agent_id: string;
    season_id: string;
    body: string;
    leaf_index: number;
  };
  record_moments: { season_id: string; agent_id: string; kind: string; moment: number; seal: string };
}

async function backfill(db: Kysely<Backfill>): Promise<void> {
  const seen = new Set<string>();
  for (let after = -1; ; ) {
    const rows = await db
      .selectFrom("records")
      .select(["seal", "kind", "agent_id", "season_id", "body", "leaf_index"])
      .where("kind", "in", Object.keys(TIME_FIELD))
      .where("leaf_index", ">", after)
      .orderBy("leaf_index")
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]!.leaf_index);
    const fresh = [];
    for (const r of rows) {
      const message = (JSON.parse(r.body) as { message: Record<string, number> }).message;
      const moment = message[TIME_FIELD[r.kind]!]!;
      const key = JSON.stringify([r.season_id, r.agent_id, r.kind, moment]);
      if (seen.has(key)) continue;
      seen.add(key);
      fresh.push({ season_id: r.season_id, agent_id: r.agent_id, kind: r.kind, moment, seal: r.seal });
    }
    if (fresh.length > 0) await db.insertInto("record_moments").values(fresh).execute();
  }
}
