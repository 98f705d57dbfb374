import { insertBatched } from "../batch";
import { ANCHOR_COLUMNS, coveringAnchor } from "./anchors";
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, RiskCapitalTable, RiskHoursTable, RiskReadingsTable, RiskRowsTable } from "../schema";
import type { ScoreAnchorColumns } from "./scores";

export type StoredRiskRow = Selectable<RiskRowsTable>;
export type StoredRiskReading = Selectable<RiskReadingsTable>;

/** The hour served (the asked one, else the season's latest risk hour) and the last full hour at or before it. */
async function servedHours(
  db: Kysely<Database>,
  seasonId: string,
  atOrBefore?: number,
): Promise<{ hour: number; full: number } | undefined> {
  let hours = db
    .selectFrom("risk_hours")
    .select("as_of")
    .where("season_id", "=", seasonId)
    .orderBy("as_of", "desc")
    .limit(1);
  if (atOrBefore !== undefined) hours = hours.where("as_of", "<=", atOrBefore);
  const hour = await hours.executeTakeFirst();
  if (hour === undefined) return undefined;
  const full = await hours.where("all_stored", "=", 1).where("as_of", "<=", hour.as_of).executeTakeFirst();
  return { hour: Number(hour.as_of), full: Number(full?.as_of ?? hour.as_of) };
}

/**
 * The season's risk rows of an hour (the latest risk hour by default, else the latest at or
 * before `atOrBefore`), each with the first anchor covering its seal's leaf (anchor columns null
 * while pending), by vault. A row is stored only when it changed, so each vault's row of an hour
 * is its latest stored at or before it (its `as_of` says which); the vaults are those of the last
 * hour at or before it at which every vault's row was stored (`risk_hours.all_stored`), as the vault set
 * changes only at such an hour. A vault's capital stored later than its row on its own
 * (risk_capital: the capital moved, the seal did not) is served in the row, with that hour as
 * its `as_of`. `hour` is the hour served.
 */
export async function riskRowsAt(
  db: Kysely<Database>,
  seasonId: string,
  atOrBefore?: number,
): Promise<{ hour: number | null; rows: Array<StoredRiskRow & ScoreAnchorColumns> }> {
  const hours = await servedHours(db, seasonId, atOrBefore);
  if (hours === undefined) return { hour: null, rows: [] };
  const rows = await latestRows(db, seasonId, hours)
    .leftJoin("anchors", coveringAnchor("risk_rows"))
    .selectAll("risk_rows")
    .select(ANCHOR_COLUMNS)
    .orderBy("risk_rows.vault_id")
    .execute();
  return { hour: hours.hour, rows: withCapital(rows) };
}

/**
 * Each vault's row served at `hours.hour` (`riskRowsAt`), no column selected but a capital stored
 * later on its own (`withCapital` serves it in the row).
 */
function latestRows(db: Kysely<Database>, seasonId: string, hours: { hour: number; full: number }) {
  return db
    .selectFrom("risk_rows as f")
    .innerJoin("risk_rows", (j) =>
      j.onRef("risk_rows.season_id", "=", "f.season_id").onRef("risk_rows.vault_id", "=", "f.vault_id"),
    )
    .where("f.season_id", "=", seasonId)
    .where("f.as_of", "=", hours.full)
    .where("risk_rows.as_of", "=", (eb) =>
      eb
        .selectFrom("risk_rows as m")
        .select((m) => m.fn.max("m.as_of").as("as_of"))
        .whereRef("m.season_id", "=", "f.season_id")
        .whereRef("m.vault_id", "=", "f.vault_id")
        .where("m.as_of", "<=", hours.hour),
    )
    .select((eb) => {
      const capital = eb
        .selectFrom("risk_capital as c")
        .whereRef("c.season_id", "=", "risk_rows.season_id")
        .whereRef("c.vault_id", "=", "risk_rows.vault_id")
        .where("c.as_of", "<=", hours.hour)
        .orderBy("c.as_of", "desc")
        .limit(1);
      return [capital.select("c.as_of").as("capital_as_of"), capital.select("c.tvl_usd").as("capital_tvl")];
    });
}

/** Rows with the capital stored after them on its own served in them, with its hour as their `as_of`. */
function withCapital<R extends { as_of: number; tvl_usd: number }>(
  rows: Array<R & { capital_as_of: number | null; capital_tvl: number | null }>,
): R[] {
  return rows.map(({ capital_as_of, capital_tvl, ...row }) =>
    capital_as_of !== null && Number(capital_as_of) > Number(row.as_of)
      ? ({ ...row, as_of: capital_as_of, tvl_usd: Number(capital_tvl) } as unknown as R)
      : (row as unknown as R),
  );
}

/**
 * The seals, leaves and capital of the rows and readings `riskRowsAt` and `riskReadingsAt` serve
 * at `hour` (a risk hour of the season), without their bodies or anchors: what the risk step
 * carries from its last hour (risk/cadence.ts) when a new process starts.
 */
export async function riskSealsAt(db: Kysely<Database>, seasonId: string, hour: number) {
  const hours = await servedHours(db, seasonId, hour);
  if (hours === undefined) return { rows: [], readings: [] };
  const rows = await latestRows(db, seasonId, hours)
    .select([
      "risk_rows.vault_id",
      "risk_rows.as_of",
      "risk_rows.seal",
      "risk_rows.leaf_index",
      "risk_rows.tvl_usd",
    ])
    .execute();
  const readings = await latestReadings(db, seasonId, hours)
    .select([
      "risk_readings.vault_id",
      "risk_readings.component",
      "risk_readings.seal",
      "risk_readings.leaf_index",
    ])
    .execute();
  return { rows: withCapital(rows), readings };
}

/** Capital stored on its own (the row's seal unchanged), at most one per vault and hour. */
export async function insertRiskCapital(
  db: Kysely<Database>,
  rows: readonly Insertable<RiskCapitalTable>[],
): Promise<void> {
  await insertBatched(db, "risk_capital", rows);
}

/** `riskRowsAt` the season's latest risk hour. Unsorted by key: the caller sorts by the requested one. */
export async function latestRiskRows(
  db: Kysely<Database>,
  seasonId: string,
): Promise<Array<StoredRiskRow & ScoreAnchorColumns>> {
  return (await riskRowsAt(db, seasonId)).rows;
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
 * The season's component readings of an hour (one component's, when given), each vault's latest
 * stored at or before it, as `riskRowsAt` reads rows; each with the first anchor covering its
 * leaf; by vault, then in the fixed component order of the row.
 */
export async function riskReadingsAt(
  db: Kysely<Database>,
  seasonId: string,
  atOrBefore?: number,
  component?: string,
): Promise<{ hour: number | null; readings: Array<StoredRiskReading & ScoreAnchorColumns> }> {
  const hours = await servedHours(db, seasonId, atOrBefore);
  if (hours === undefined) return { hour: null, readings: [] };
  let query = latestReadings(db, seasonId, hours)
    .leftJoin("anchors", coveringAnchor("risk_readings"))
    .selectAll("risk_readings")
    .select(ANCHOR_COLUMNS);
  if (component !== undefined) query = query.where("f.component", "=", component);
  const readings = await query.orderBy("risk_readings.vault_id").execute();
  return { hour: hours.hour, readings };
}

/** Each vault's readings served at `hours.hour` (`riskReadingsAt`), no column selected. */
function latestReadings(db: Kysely<Database>, seasonId: string, hours: { hour: number; full: number }) {
  return db
    .selectFrom("risk_readings as f")
    .innerJoin("risk_readings", (j) =>
      j
        .onRef("risk_readings.season_id", "=", "f.season_id")
        .onRef("risk_readings.vault_id", "=", "f.vault_id")
        .onRef("risk_readings.component", "=", "f.component"),
    )
    .where("f.season_id", "=", seasonId)
    .where("f.as_of", "=", hours.full)
    .where("risk_readings.as_of", "=", (eb) =>
      eb
        .selectFrom("risk_readings as m")
        .select((m) => m.fn.max("m.as_of").as("as_of"))
        .whereRef("m.season_id", "=", "f.season_id")
        .whereRef("m.vault_id", "=", "f.vault_id")
        .whereRef("m.component", "=", "f.component")
        .where("m.as_of", "<=", hours.hour),
    );
}

/** `riskReadingsAt` the season's latest risk hour. */
export async function latestRiskReadings(
  db: Kysely<Database>,
  seasonId: string,
  component?: string,
): Promise<Array<StoredRiskReading & ScoreAnchorColumns>> {
  return (await riskReadingsAt(db, seasonId, undefined, component)).readings;
}

/** Whether the risk step already ran for the season at `asOf` (rows stored or not). */
export async function hasRiskHour(db: Kysely<Database>, seasonId: string, asOf: number): Promise<boolean> {
  const row = await db
    .selectFrom("risk_hours")
    .select("as_of")
    .where("season_id", "=", seasonId)
    .where("as_of", "=", asOf)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertRiskHour(db: Kysely<Database>, row: Insertable<RiskHoursTable>): Promise<void> {
  await db.insertInto("risk_hours").values(row).execute();
}

/** The season's latest risk hour, or null before the first. */
export async function latestRiskHour(db: Kysely<Database>, seasonId: string): Promise<number | null> {
  const row = await db
    .selectFrom("risk_hours")
    .select((eb) => eb.fn.max<number | null>("as_of").as("as_of"))
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
  return row?.as_of == null ? null : Number(row.as_of);
}
