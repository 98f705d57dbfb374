import { ANCHOR_COLUMNS, coveringAnchor } from "./anchors";
import type { Kysely, Selectable } from "kysely";
import type { Database, RefereeBoardsTable } from "../schema";
import type { ScoreAnchorColumns } from "./scores";

export type StoredRefereeBoard = Selectable<RefereeBoardsTable>;

/** A stored board without its body: what a request needs to know whether its cached copy is current. */
export type RefereeBoardHead = Omit<StoredRefereeBoard, "body" | "created_at"> & ScoreAnchorColumns;

/** Whether the season has a board at `asOf` (the cycle writes each (season, hour) once). */
export async function hasRefereeBoard(
  db: Kysely<Database>,
  seasonId: string,
  asOf: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("referee_boards")
    .select("as_of")
    .where("season_id", "=", seasonId)
    .where("as_of", "=", asOf)
    .executeTakeFirst();
  return row !== undefined;
}

/** The season's newest board's input seal (undefined before its first board). */
export async function latestRefereeInputSeal(
  db: Kysely<Database>,
  seasonId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("referee_boards")
    .select("input_seal")
    .where("season_id", "=", seasonId)
    .orderBy("as_of", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.input_seal;
}

/**
 * The season's newest board, without its body, joined with the first anchor whose tree covers
 * its leaf (anchor columns null while pending).
 */
export async function latestRefereeBoardHead(
  db: Kysely<Database>,
  seasonId: string,
): Promise<RefereeBoardHead | undefined> {
  return db
    .selectFrom("referee_boards")
    .leftJoin("anchors", coveringAnchor("referee_boards"))
    .select([
      "referee_boards.season_id",
      "referee_boards.as_of",
      "referee_boards.log_size",
      "referee_boards.input_seal",
      "referee_boards.seal",
      "referee_boards.leaf_index",
      ...ANCHOR_COLUMNS,
    ])
    .where("referee_boards.season_id", "=", seasonId)
    .orderBy("referee_boards.as_of", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The sealed text of the board with this seal. */
export async function refereeBoardText(db: Kysely<Database>, seal: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("referee_boards")
    .select("body")
    .where("seal", "=", seal)
    .executeTakeFirst();
  return row?.body;
}

export async function insertRefereeBoard(db: Kysely<Database>, row: StoredRefereeBoard): Promise<void> {
  await db.insertInto("referee_boards").values(row).execute();
}
