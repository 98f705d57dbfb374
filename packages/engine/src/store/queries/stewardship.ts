import { ANCHOR_COLUMNS, coveringAnchor } from "./anchors";
import type { ClusterEvidence, DailyTriggerState, Hex32, LpLockRecord } from "@augur/scorer";
import type { Kysely, Selectable } from "kysely";
import type {
  Database,
  StewardshipDaysTable,
  StewardshipSwapsTable,
  StewardshipTransfersTable,
} from "../schema";
import type { ScoreAnchorColumns } from "./scores";

/**
 * The sealed body of one daily stewardship record: the day's trigger state (measured values,
 * every trigger, the resulting state), the excluded volume and its cluster evidence, the rules'
 * version, the epoch close, and what was monitored (so the record says what it measured).
 */
export interface StewardshipDayBody extends DailyTriggerState {
  /** `stewardship/v1`. */
  readonly version: string;
  /** Epoch close, unix seconds (UTC midnight after `day`). */
  readonly asOf: number;
  readonly excludedVolumeUsd: number;
  readonly evidence: readonly ClusterEvidence[];
  readonly chainId: number;
  /** The monitored token, its pools and the excluded addresses, lowercase. */
  readonly token: string;
  readonly pools: readonly string[];
  readonly excluded: readonly string[];
  /** When an LP timelock is monitored: its reading (at the newest final block when sealed) and alarm. */
  readonly lpLock?: LpLockRecord;
}

/** One stored day: its date, seal, Merkle log position and sealed body. */
export interface StewardshipDayRow {
  readonly day: string;
  readonly seal: Hex32;
  readonly leafIndex: number;
  readonly body: StewardshipDayBody;
}

export type StoredStewardshipDay = Selectable<StewardshipDaysTable>;
export type StoredStewardshipTransfer = Selectable<StewardshipTransfersTable>;
export type StoredStewardshipSwap = Selectable<StewardshipSwapsTable>;

function rowOf(r: Pick<StoredStewardshipDay, "day" | "seal" | "leaf_index" | "body">): StewardshipDayRow {
  return {
    day: r.day,
    seal: r.seal as Hex32,
    leafIndex: r.leaf_index,
    body: JSON.parse(r.body) as StewardshipDayBody,
  };
}

/** Every daily stewardship record, oldest first (the series the kill rules replay). */
export async function listStewardshipDays(db: Kysely<Database>): Promise<StewardshipDayRow[]> {
  const rows = await db
    .selectFrom("stewardship_days")
    .select(["day", "seal", "leaf_index", "body"])
    .orderBy("day")
    .execute();
  return rows.map(rowOf);
}

/** Recorded days newest first, a page at a time: `before` (a date) excludes it and every later day. */
export async function newestStewardshipDays(
  db: Kysely<Database>,
  limit: number,
  before?: string,
): Promise<StewardshipDayRow[]> {
  let query = db.selectFrom("stewardship_days").select(["day", "seal", "leaf_index", "body"]);
  if (before !== undefined) query = query.where("day", "<", before);
  return (await query.orderBy("day", "desc").limit(limit).execute()).map(rowOf);
}

/** Days joined with the first anchor whose tree covers each day's leaf (null columns while pending). */
function anchoredDaysQuery(db: Kysely<Database>) {
  return db
    .selectFrom("stewardship_days")
    .leftJoin("anchors", coveringAnchor("stewardship_days"))
    .select([
      "stewardship_days.day",
      "stewardship_days.seal",
      "stewardship_days.leaf_index",
      "stewardship_days.body",
      ...ANCHOR_COLUMNS,
    ]);
}

type AnchoredDay = Pick<StoredStewardshipDay, "day" | "seal" | "leaf_index" | "body"> & ScoreAnchorColumns;

function anchorColumns(r: AnchoredDay): ScoreAnchorColumns {
  return {
    anchor_index: r.anchor_index,
    tree_size: r.tree_size,
    root: r.root,
    chain_id: r.chain_id,
    registry: r.registry,
    tx_hash: r.tx_hash,
    block_number: r.block_number,
    block_hash: r.block_hash,
    anchored_at: r.anchored_at,
  };
}

/** Every day, oldest first, with the anchor covering its seal (for the API). */
export async function listAnchoredStewardshipDays(
  db: Kysely<Database>,
): Promise<Array<StewardshipDayRow & { anchor: ScoreAnchorColumns }>> {
  const rows = await anchoredDaysQuery(db).orderBy("stewardship_days.day").execute();
  return rows.map((r) => ({ ...rowOf(r), anchor: anchorColumns(r) }));
}

/** One day's stored row (its sealed text as stored) with its anchor, or undefined. */
export async function findAnchoredStewardshipDay(
  db: Kysely<Database>,
  day: string,
): Promise<
  { day: string; seal: string; leafIndex: number; text: string; anchor: ScoreAnchorColumns } | undefined
> {
  const r = await anchoredDaysQuery(db).where("stewardship_days.day", "=", day).executeTakeFirst();
  return r && { day: r.day, seal: r.seal, leafIndex: r.leaf_index, text: r.body, anchor: anchorColumns(r) };
}

/** The newest recorded day's date and confirmed block, if any. */
export async function latestStewardshipDay(
  db: Kysely<Database>,
): Promise<Pick<StoredStewardshipDay, "day" | "as_of" | "chain_id" | "token" | "through_block"> | undefined> {
  return db
    .selectFrom("stewardship_days")
    .select(["day", "as_of", "chain_id", "token", "through_block"])
    .orderBy("day", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Whether `day` is recorded already (the step re-checks under the writer lock). */
export async function hasStewardshipDay(db: Kysely<Database>, day: string): Promise<boolean> {
  const row = await db.selectFrom("stewardship_days").select("day").where("day", "=", day).executeTakeFirst();
  return row !== undefined;
}

export async function insertStewardshipDay(db: Kysely<Database>, row: StoredStewardshipDay): Promise<void> {
  await db.insertInto("stewardship_days").values(row).execute();
}

/** The token's transfers before `before` (unix seconds), in chain order. */
export async function stewardshipTransfersBefore(
  db: Kysely<Database>,
  chainId: number,
  token: string,
  before: number,
): Promise<StoredStewardshipTransfer[]> {
  return db
    .selectFrom("stewardship_transfers")
    .selectAll()
    .where("chain_id", "=", chainId)
    .where("token", "=", token)
    .where("block_timestamp", "<", before)
    .orderBy("block_number")
    .orderBy("log_index")
    .execute();
}

/** The pools' swaps before `before` (unix seconds), in chain order. */
export async function stewardshipSwapsBefore(
  db: Kysely<Database>,
  chainId: number,
  pools: readonly string[],
  before: number,
): Promise<StoredStewardshipSwap[]> {
  if (pools.length === 0) return [];
  return db
    .selectFrom("stewardship_swaps")
    .selectAll()
    .where("chain_id", "=", chainId)
    .where("pool", "in", [...pools])
    .where("block_timestamp", "<", before)
    .orderBy("block_number")
    .orderBy("log_index")
    .execute();
}
