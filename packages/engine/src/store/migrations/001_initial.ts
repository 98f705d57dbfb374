import { sql, type Kysely, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { APPEND_ONLY_TABLES, KEEPER_ATTEMPT_STATUSES, RECORD_KINDS } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

function inList(values: readonly string[]) {
  return sql.join(values.map((v) => sql.lit(v)));
}

/** The first schema: seasons, sealed records, agents, the Merkle log, anchors, keeper, scores. */
export function initial(dialect: DialectName): Migration {
  const serial = dialect === "postgres" ? "bigserial" : "integer";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("seasons")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("starts_at", "bigint", (c) => c.notNull())
        .addColumn("ends_at", "bigint", (c) => c.notNull())
        .addColumn("closed_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addCheckConstraint("seasons_window", sql`ends_at > starts_at`)
        .execute();

      // Every transaction that appends to the log first updates this one row: on both backends
      // that takes the writer lock before anything is read, so appends are strictly serial.
      await db.schema
        .createTable("log_writer")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("version", "bigint", (c) => c.notNull())
        .execute();
      await sql`INSERT INTO log_writer (id, version) VALUES (1, 0)`.execute(db);

      await db.schema
        .createTable("merkle_leaves")
        .addColumn("leaf_index", "bigint", (c) => c.primaryKey())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("appended_at", "bigint", (c) => c.notNull())
        .addCheckConstraint("merkle_leaves_index", sql`leaf_index >= 0`)
        .execute();

      await db.schema
        .createTable("merkle_nodes")
        .addColumn("level", "integer", (c) => c.notNull())
        .addColumn("idx", "bigint", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("merkle_nodes_pk", ["level", "idx"])
        .execute();

      await db.schema
        .createTable("records")
        .addColumn("seal", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("signer", "text")
        .addColumn("signature", "text")
        .addColumn("cosignature", "text")
        .addColumn("leaf_index", "bigint", (c) => c.notNull().unique().references("merkle_leaves.leaf_index"))
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .addCheckConstraint("records_kind", sql`kind IN (${inList(RECORD_KINDS)})`)
        .execute();
      await db.schema
        .createIndex("records_by_agent")
        .on("records")
        .columns(["season_id", "agent_id", "kind", "leaf_index"])
        .execute();

      await db.schema
        .createTable("agents")
        .addColumn("id", "text", (c) => c.notNull())
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("creator", "text", (c) => c.notNull())
        .addColumn("style", "text", (c) => c.notNull())
        .addColumn("agent_key", "text", (c) => c.notNull())
        .addColumn("registration_seal", "text", (c) => c.notNull().unique().references("records.seal"))
        .addColumn("registered_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("agents_pk", ["id", "season_id"])
        .execute();
      await db.schema
        .createIndex("agents_by_creator")
        .on("agents")
        .columns(["season_id", "creator"])
        .execute();
      // One agent key speaks for one agent per season.
      await db.schema
        .createIndex("agents_by_key")
        .unique()
        .on("agents")
        .columns(["season_id", "agent_key"])
        .execute();

      await db.schema
        .createTable("anchors")
        .addColumn("anchor_index", "bigint", (c) => c.primaryKey())
        .addColumn("tree_size", "bigint", (c) => c.notNull().unique())
        .addColumn("root", "text", (c) => c.notNull())
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("registry", "text", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("anchored_at", "bigint", (c) => c.notNull())
        .addColumn("recorded_at", "bigint", (c) => c.notNull())
        .addCheckConstraint("anchors_size", sql`tree_size > 0`)
        .execute();

      await db.schema
        .createTable("keeper_attempts")
        .addColumn("id", serial, (c) =>
          dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn("tree_size", "bigint", (c) => c.notNull())
        .addColumn("root", "text", (c) => c.notNull())
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("registry", "text", (c) => c.notNull())
        .addColumn("nonce", "bigint")
        .addColumn("tx_hash", "text")
        .addColumn("max_fee_per_gas", "text")
        .addColumn("max_priority_fee_per_gas", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("at", "bigint", (c) => c.notNull())
        .addCheckConstraint("keeper_attempts_status", sql`status IN (${inList(KEEPER_ATTEMPT_STATUSES)})`)
        .execute();
      await db.schema
        .createIndex("keeper_attempts_by_head")
        .on("keeper_attempts")
        .columns(["tree_size"])
        .execute();

      await db.schema
        .createTable("scores")
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("as_of", "bigint", (c) => c.notNull())
        .addColumn("formula", "text", (c) => c.notNull())
        .addColumn("score", "double precision")
        .addColumn("reason", "text")
        .addColumn("rank", "integer")
        .addColumn("terms", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique().references("records.seal"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("scores_pk", ["agent_id", "season_id", "as_of"])
        .addCheckConstraint("scores_score_or_reason", sql`(score IS NULL) = (reason IS NOT NULL)`)
        .execute();
      await db.schema
        .createIndex("scores_by_season")
        .on("scores")
        .columns(["season_id", "as_of", "rank"])
        .execute();

      await db.schema
        .createTable("consensus_rounds")
        .addColumn("asset", "text", (c) => c.notNull())
        .addColumn("window_seconds", "bigint", (c) => c.notNull())
        .addColumn("bucket", "bigint", (c) => c.notNull())
        .addColumn("direction", "text", (c) => c.notNull())
        .addColumn("strength_bps", "integer", (c) => c.notNull())
        .addColumn("voters", "integer", (c) => c.notNull())
        .addColumn("up_weight", "text", (c) => c.notNull())
        .addColumn("down_weight", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addColumn("block_timestamp", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("consensus_rounds_pk", ["tx_hash", "log_index"])
        .addCheckConstraint("consensus_rounds_direction", sql`direction IN ('up', 'down')`)
        .execute();
      await db.schema
        .createIndex("consensus_rounds_by_market")
        .on("consensus_rounds")
        .columns(["asset", "window_seconds", "bucket", "block_number", "log_index"])
        .execute();

      await createRefuseFunction(db, dialect);
      for (const table of APPEND_ONLY_TABLES) {
        for (const statement of appendOnlyStatements(dialect, table)) await statement.execute(db);
      }
    },
  };
}
