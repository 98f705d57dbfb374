import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import type { Store } from "./open";
import { recordsByLeafPage } from "./queries/records";
import type { Database } from "./schema";
import { AgentRecords, INPUT_KINDS } from "./agent-records";

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
  private held = 0;
  /** The seal of leaf `upTo − 1`: checked before extending, so another log is never mixed in. */
  private lastSeal: string | undefined;

  constructor(readonly seasonId: string) {}

  /** The tree size these rows are read up to. */
  get upTo(): number {
    return this.size;
  }

  /** The agent's records (an empty set if it has none below `upTo`). */
  of(agentId: string): AgentRecords {
    return this.agents.get(agentId) ?? new AgentRecords();
  }

  /**
   * Reads the season's input records in [upTo, size). If the log no longer has this object's
   * last leaf (another store behind the same handle), everything is read again from leaf 0.
   */
  async extendTo(store: StoreReader, size: number): Promise<RowsRead> {
    if (size < this.size) throw new RangeError(`rows are read up to ${this.size}, cannot shrink to ${size}`);
    if (this.size > 0) {
      const last = await store.log.sealAt(store.db, this.size - 1);
      if (last !== this.lastSeal) this.reset();
    }
    let read = 0;
    let from = this.size;
    try {
      while (from < size) {
        const page = await inputPage(store.db, from, size);
        for (const r of page) {
          if (r.season_id !== this.seasonId) continue;
          read += 1;
          let agent = this.agents.get(r.agent_id);
          if (!agent) this.agents.set(r.agent_id, (agent = new AgentRecords()));
          agent.add(r.kind, r.seal as Hex32, r.body);
        }
        from = page.length < PAGE ? size : page[page.length - 1]!.leaf_index + 1;
      }
      if (size > this.size) {
        this.lastSeal = await store.log.sealAt(store.db, size - 1);
        this.size = size;
      }
    } catch (error) {
      this.reset(); // part of a range was decoded: reading it again would add it twice
      throw error;
    }
    this.held += read;
    return { read, held: this.held };
  }

  private reset(): void {
    this.agents.clear();
    this.size = 0;
    this.held = 0;
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
    const turn = entry.turn.then(() => rows.extendTo(this.store, Math.max(anchoredSize, rows.upTo)));
    entry.turn = turn.catch(() => undefined);
    return { rows, ...(await turn) };
  }
}

const perStore = new WeakMap<Kysely<Database>, SeasonRowCache>();

/** The process-wide row cache of one open store (created on first use, gone with the store). */
export function seasonRowCache(store: StoreReader): SeasonRowCache {
  let cache = perStore.get(store.db);
  if (!cache) perStore.set(store.db, (cache = new SeasonRowCache(store)));
  return cache;
}
