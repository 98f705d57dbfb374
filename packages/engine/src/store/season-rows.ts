import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import type { Store } from "./open";
import { recordsByLeafPage, seasonRecords } from "./queries/records";
import type { Database } from "./schema";
import { AgentRecords, INPUT_KINDS, type RecordCounts } from "./agent-records";

/** A season not asked for in this long (two cycle hours) is dropped from the cache. */
const KEEP_SECONDS = 2 * 3600;
/**
 * Records read per query: bounded memory however many new records there are, and small enough
 * that a page's rows die young (pages of 20,000 cost a third more CPU, mostly in collecting them).
 */
const PAGE = 5_000;

const inputPage = recordsByLeafPage(INPUT_KINDS, PAGE);

/** What reading rows needs of a store: its database and its log. */
type StoreReader = Pick<Store, "db" | "log">;

/**
 * Where each agent's records are needed from, when a season's rows start empty (a restart): the
 * log size of the agent's fold and the agent's records of each kind below it. Rows then read only
 * the records after each agent's size; an agent without one is read whole when it is asked for.
 */
export type RowsStart = ReadonlyMap<string, { readonly logSize: number; readonly seen: RecordCounts }>;

/** How much reading a season's rows up to a tree size took. */
export interface RowsRead {
  /** The season's records read and decoded now. */
  readonly read: number;
  /** Records held in all, after reading. */
  readonly held: number;
}

/**
 * Every agent's anchored input records of one season, decoded, for the log prefix [0, `upTo`).
 * The records table is append-only and a leaf's record is written in the transaction that
 * appends the leaf, so the rows below a tree size never change: extending to a larger size reads
 * only the records in between.
 */
export class SeasonRows {
  private readonly agents = new Map<string, AgentRecords>();
  private size = 0;
  /** The log size the rows were started at (0: from the season's first record). */
  private from = 0;
  /** Per agent started later than `from`: the log size its records are read from. */
  private readonly starts = new Map<string, number>();
  /** The seal of leaf `upTo − 1`: checked before extending, so another log is never mixed in. */
  private lastSeal: string | undefined;

  constructor(readonly seasonId: string) {}

  /** The tree size these rows are read up to. */
  get upTo(): number {
    return this.size;
  }

  /** Records held in all (decoded, in memory). */
  get held(): number {
    let held = 0;
    for (const agent of this.agents.values()) held += agent.count;
    return held;
  }

  /** The agent's records (an empty set if it has none below `upTo`; `complete` false if its earlier ones were not read). */
  of(agentId: string): AgentRecords {
    return this.agents.get(agentId) ?? new AgentRecords(this.from === 0 ? undefined : null);
  }

  /**
   * Reads the season's input records in [upTo, size). If the log no longer has this object's
   * last leaf (another store behind the same handle), everything is read again from leaf 0.
   * Rows not read yet start at `start` when given: each agent of it from its log size, holding
   * its records after it only (the others' records start at the smallest of those sizes).
   */
  async extendTo(store: StoreReader, size: number, start?: RowsStart): Promise<RowsRead> {
    if (size < this.size) throw new RangeError(`rows are read up to ${this.size}, cannot shrink to ${size}`);
    if (this.size > 0) {
      const last = await store.log.sealAt(store.db, this.size - 1);
      if (last !== this.lastSeal) this.reset();
    }
    if (this.size === 0 && start !== undefined) this.startAt(start, size);
    let read = 0;
    let from = this.size;
    try {
      if (from > 0 && this.lastSeal === undefined) this.lastSeal = await store.log.sealAt(store.db, from - 1);
      while (from < size) {
        const page = await inputPage(store.db, from, size);
        for (const r of page) {
          if (r.season_id !== this.seasonId) continue;
          const startsAt = this.starts.get(r.agent_id);
          if (startsAt !== undefined && Number(r.leaf_index) < startsAt) continue;
          read += 1;
          let agent = this.agents.get(r.agent_id);
          if (!agent) this.agents.set(r.agent_id, (agent = this.of(r.agent_id)));
          agent.add(r.kind, r.seal as Hex32, r.body);
        }
        from = page.length < PAGE ? size : page[page.length - 1]!.leaf_index + 1;
      }
      if (size > this.size) {
        this.lastSeal = await store.log.sealAt(store.db, size - 1);
        this.size = size;
      }
      if (this.starts.size > 0 && [...this.starts.values()].every((at) => at <= this.size))
        this.starts.clear();
    } catch (error) {
      this.reset(); // part of a range was decoded: reading it again would add it twice
      throw error;
    }
    return { read, held: this.held };
  }

  /**
   * The agent's records read again from the season's first (all below `upTo`), replacing what is
   * held: for a reader that needs its whole history (a fold built afresh, a score from scratch).
   */
  async complete(store: StoreReader, agentId: string): Promise<AgentRecords> {
    const known = this.agents.get(agentId);
    if (known?.complete || (known === undefined && this.from === 0)) return this.of(agentId);
    const whole = new AgentRecords();
    for (const r of await seasonRecords(store.db, this.seasonId, INPUT_KINDS, agentId, this.size))
      whole.add(r.kind, r.seal as Hex32, r.body);
    this.agents.set(agentId, whole);
    return whole;
  }

  /**
   * Drops, agent by agent, the records every reader of their kind has claimed to have seen
   * (`AgentRecords.claim`): between hours the rows hold what the folds still need. Returns the
   * records dropped.
   */
  settle(): number {
    const readers = new Map<string, Set<string>>();
    for (const agent of this.agents.values()) agent.readersOf(readers);
    let dropped = 0;
    for (const agent of this.agents.values()) dropped += agent.settle(readers);
    return dropped;
  }

  private startAt(start: RowsStart, size: number): void {
    let from = size;
    for (const { logSize } of start.values()) if (logSize <= size) from = Math.min(from, logSize);
    if (from === 0) return;
    for (const [agentId, { logSize, seen }] of start) {
      if (logSize > size) continue;
      this.agents.set(agentId, new AgentRecords(seen));
      if (logSize > from) this.starts.set(agentId, logSize);
    }
    this.from = from;
    this.size = from;
    this.lastSeal = undefined;
  }

  private reset(): void {
    this.agents.clear();
    this.starts.clear();
    this.size = 0;
    this.from = 0;
    this.lastSeal = undefined;
  }
}

/**
 * The cycle's decoded input rows, kept between cycles of one process so each hour reads only the
 * records anchored since the last (the first cycle after a start reads the season once). One
 * cache serves one store. A season not asked for during two cycle hours is dropped, so a closed
 * season's rows do not stay in memory.
 */
export class SeasonRowCache {
  private readonly seasons = new Map<string, { rows: SeasonRows; hour: number; turn: Promise<unknown> }>();

  constructor(private readonly store: StoreReader) {}

  /**
   * The season's rows below `anchoredSize`, as of the cycle hour `asOf`. A size below what the
   * cache holds (an older view) is read afresh and not kept.
   */
  async season(
    seasonId: string,
    anchoredSize: number,
    asOf: number,
    start?: RowsStart,
  ): Promise<{ rows: SeasonRows } & RowsRead> {
    for (const [id, entry] of this.seasons)
      if (id !== seasonId && entry.hour < asOf - KEEP_SECONDS) this.seasons.delete(id);
    let entry = this.seasons.get(seasonId);
    if (!entry) {
      entry = { rows: new SeasonRows(seasonId), hour: asOf, turn: Promise.resolve() };
      this.seasons.set(seasonId, entry);
    }
    entry.hour = Math.max(entry.hour, asOf);
    const { rows } = entry;
    if (anchoredSize < rows.upTo) {
      const fresh = new SeasonRows(seasonId);
      return { rows: fresh, ...(await fresh.extendTo(this.store, anchoredSize)) };
    }
    // One extension at a time per season: two cycles of one process never decode a record twice.
    const turn = entry.turn.then(() => rows.extendTo(this.store, Math.max(anchoredSize, rows.upTo), start));
    entry.turn = turn.catch(() => undefined);
    return { rows, ...(await turn) };
  }

  /** Drops from every season's rows what all its readers have seen (at the end of a cycle). */
  settle(): number {
    let dropped = 0;
    for (const { rows } of this.seasons.values()) dropped += rows.settle();
    return dropped;
  }

  /** Records held in all seasons. */
  get held(): number {
    let held = 0;
    for (const { rows } of this.seasons.values()) held += rows.held;
    return held;
  }
}

const perStore = new WeakMap<Kysely<Database>, SeasonRowCache>();

/** The process-wide row cache of one open store (created on first use, gone with the store). */
export function seasonRowCache(store: StoreReader): SeasonRowCache {
  let cache = perStore.get(store.db);
  if (!cache) perStore.set(store.db, (cache = new SeasonRowCache(store)));
  return cache;
}
