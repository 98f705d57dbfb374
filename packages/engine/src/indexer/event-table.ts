import type { Log } from "ethers";
import type { Insertable, Kysely } from "kysely";
import {
  deleteEventsAbove,
  finalBlockAbove,
  insertEvent,
  type EventTable,
  type FinalRows,
  type Source,
} from "../store/queries/events";
import type { Store } from "../store/open";
import type { Database } from "../store/schema";
import { logPlace, type LogLike, type LogPlace } from "./blocks";
import { ReorgTooDeepError } from "./errors";
import type { EventHandler, Placed } from "./follow";

/** One parsed log as a row of one event table. */
export type EventRow = { [T in EventTable]: { table: T; row: Insertable<Database[T]> } }[EventTable];

/** What the reorg error names as having relied on the block (the default is "its anchor"). */
const RELIED_ON: Record<FinalRows, string | undefined> = {
  anchors: undefined,
  "call records": undefined,
  "stewardship days": "a stewardship day measured up to it",
};

/**
 * A followed contract whose events are rows of event tables (anchors, calls, token transfers,
 * pool swaps, ETH transfers): each log (or entry read like one) becomes its rows, stored once; a reorg deletes the rows above the
 * canonical block, unless something final (`final`) was made from them, in which case the reorg
 * is deeper than the confirmations and a person must look. Nothing is promoted unless a
 * subclass says so.
 */
export abstract class EventTableHandler<E extends Placed & LogLike = Log> implements EventHandler<E> {
  abstract readonly topics: readonly string[];
  /** Every table this contract's rows go to, in the order a rollback deletes them. */
  protected abstract readonly tables: readonly EventTable[];
  protected abstract readonly final: FinalRows;

  constructor(
    protected readonly source: Source,
    protected readonly confirmations: number,
  ) {}

  /** The rows of one log (none if it is not one of this handler's events). */
  protected abstract rowsOf(entry: E, place: LogPlace): EventRow[];

  async store(
    trx: Kysely<Database>,
    logs: readonly E[],
    timestamps: ReadonlyMap<string, number>,
  ): Promise<number> {
    let fresh = 0;
    for (const entry of logs) {
      for (const { table, row } of this.rowsOf(entry, logPlace(entry, timestamps))) {
        fresh += await insertEvent(trx, table, row);
      }
    }
    return fresh;
  }

  async rollback(trx: Kysely<Database>, block: number): Promise<number> {
    const final = await finalBlockAbove(trx, this.final, this.source, block);
    if (final !== undefined) throw new ReorgTooDeepError(final, this.confirmations, RELIED_ON[this.final]);
    let removed = 0;
    for (const table of this.tables) removed += await deleteEventsAbove(trx, table, this.source, block);
    return removed;
  }

  async promote(_store: Store, _through: number): Promise<number> {
    return 0;
  }
}
