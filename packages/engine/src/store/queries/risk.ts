import { insertBatched } from "../batch";
import { coveringAnchor } from "./anchors";
import type { Kysely, Selectable } from "kysely";
import type { Database, RiskRowsTable } from "../schema";
import type { ScoreAnchorColumns } from "./scores";

export type StoredRiskRow = Selectable<RiskRowsTable>;

/**
 * The rows of the season's latest risk cycle, each with the first anchor covering its seal's
 * leaf (anchor columns null while pending). Unsorted: the caller sorts by the requested key.
 */
export async function latestRiskRows(
  db: Kysely<Database>,
  seasonId: string,
): Promise<Array<StoredRiskRow & ScoreAnchorColumns>> {
  const latest = await db
    .selectFrom("risk_rows")
    .select((eb) => eb.fn.max<number | null>("as_of").as("as_of"))
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
  if (latest?.as_of == null) return [];
  return db
    .selectFrom("risk_rows")
    .leftJoin("anchors", coveringAnchor("risk_rows"))
    .selectAll("risk_rows")
    .select([
      "anchors.anchor_index",
      "anchors.tree_size",
      "anchors.root",
      "anchors.chain_id",
      "anchors.registry",
      "anchors.tx_hash",
      "anchors.block_number",
      "anchors.block_hash",
      "anchors.anchored_at",
    ])
    .where("risk_rows.season_id", "=", seasonId)
    .where("risk_rows.as_of", "=", Number(latest.as_of))
    .orderBy("risk_rows.vault_id")
    .execute();
}

export async function insertRiskRows(db: Kysely<Database>, rows: readonly StoredRiskRow[]): Promise<void> {
  await insertBatched(db, "risk_rows", rows);
}
