import { insertBatched } from "../batch";
import { ANCHOR_COLUMNS, coveringAnchor } from "./anchors";
import type { Kysely, Selectable } from "kysely";
import type { Database, RiskReadingsTable, RiskRowsTable } from "../schema";
import type { ScoreAnchorColumns } from "./scores";

export type StoredRiskRow = Selectable<RiskRowsTable>;
export type StoredRiskReading = Selectable<RiskReadingsTable>;

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
    .select(ANCHOR_COLUMNS)
    .where("risk_rows.season_id", "=", seasonId)
    .where("risk_rows.as_of", "=", Number(latest.as_of))
    .orderBy("risk_rows.vault_id")
    .execute();
}

export async function insertRiskRows(db: Kysely<Database>, rows: readonly StoredRiskRow[]): Promise<void> {
  await insertBatched(db, "risk_rows", rows);
}

export async function insertRiskReadings(
  db: Kysely<Database>,
  rows: readonly StoredRiskReading[],
): Promise<void> {
  await insertBatched(db, "risk_readings", rows);
}

/**
 * The component readings of the season's latest risk cycle (one component's, when given), each
 * with the first anchor covering its leaf; by vault, then in the fixed component order of the row.
 */
export async function latestRiskReadings(
  db: Kysely<Database>,
  seasonId: string,
  component?: string,
): Promise<Array<StoredRiskReading & ScoreAnchorColumns>> {
  const latest = await db
    .selectFrom("risk_readings")
    .select((eb) => eb.fn.max<number | null>("as_of").as("as_of"))
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
  if (latest?.as_of == null) return [];
  let query = db
    .selectFrom("risk_readings")
    .leftJoin("anchors", coveringAnchor("risk_readings"))
    .selectAll("risk_readings")
    .select(ANCHOR_COLUMNS)
    .where("risk_readings.season_id", "=", seasonId)
    .where("risk_readings.as_of", "=", Number(latest.as_of));
  if (component !== undefined) query = query.where("risk_readings.component", "=", component);
  return query.orderBy("risk_readings.vault_id").execute();
}
