/**
 * A season of hourly agent records written straight into an SQLite store file, for the cycle
 * benchmark (`cycle.bench.ts`). Records are sealed exactly as ingestion seals them
 * (`sealedRecord`, the engine's own call-record shape) and the log's leaf and subtree rows are
 * computed by the log store's own `appendToFrontier`, so the cycle reads what it would read in
 * production (bench-season.test.ts checks the rows equal what `appendEngineRecords` writes); only
 * the signature columns are empty (the cycle never reads them). The mix per agent follows
 * packages/scorer's score.bench.ts: per 720 hours, 720 snapshots, 100 decisions (one in ten a
 * protective exit), 20 trades and 50 resolved calls.
 *
 * Speed: one prepared single-row INSERT per row through better-sqlite3, 250 agents (about 220,000
 * records at 720 h) per transaction, a 2 GiB page cache, a rollback journal and no fsync (a scratch file),
 * each record canonicalised once, instead of Kysely's multi-row inserts on a 64 MiB cache: a
 * 720-hour season of 10,000 agents in about 6 minutes (it took about 40).
 */
import { hash } from "node:crypto";
import { canonicalJson, seal, type Hex32 } from "@augur/scorer";
import SqliteDatabase from "better-sqlite3";
import type { CallRecordBody } from "@augur/records";
import { appendEngineRecords, type EngineRecord } from "../../src/store/append";
import { sealedRecord } from "@augur/records";
import { appendToFrontier, type LogNode } from "../../src/store/merkle/log-store";
import { openStore, type Store } from "../../src/store/open";
import type { Insertable } from "kysely";
import type { AgentsTable, SeasonsTable } from "../../src/store/schema";
import { insertSeason } from "../../src/store/queries/seasons";

export const BENCH_SEASON = "bench";
export const BENCH_CHAIN_ID = 31337;
const HOUR = 3600;
const STYLES = ["momentum", "mean-reversion", "trend-following", "market-neutral", "discretionary"] as const;
const ASSETS = ["0x" + "a1".repeat(20), "0x" + "b2".repeat(20)] as const;
const LEDGER = "0x" + "c3".repeat(20);
/** Agents written per transaction: bounded memory, few commits. */
const AGENTS_PER_BATCH = 250;
/** The seeding connection's page cache (KiB, negative in the pragma): the seal indexes stay hot. */
const SEED_CACHE_KIB = 2 << 20;

export interface BenchSeasonShape {
  readonly agents: number;
  readonly hours: number;
  /** Unix seconds, on the hour: the season's start and its first snapshot. */
  readonly start: number;
}

/** Records per agent for `hours` of data: the score bench's 720-hour mix, scaled, never below eligibility. */
export function recordsPerAgent(hours: number) {
  return {
    snapshots: hours,
    // ≥ 6 so that, with one in ten a protective exit, every agent keeps the 5 own decisions a score needs.
    decisions: Math.max(6, Math.round((hours * 100) / 720)),
    trades: Math.max(1, Math.round((hours * 20) / 720)),
    calls: Math.max(1, Math.round((hours * 50) / 720)),
  };
}

const hex40 = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

/** Bench agent `a`'s id (agents sort by number: ids are zero-padded). */
export const benchAgentId = (a: number) => `agent-${String(a).padStart(5, "0")}`;

/**
 * The bench season's row: 30 days from `shape.start`, unless the bench's four cycles (hours
 * `hours` … `hours + 3`) would not all fall inside them; then a day past the data. At 720 h a
 * 30-day season closed at the first cycle and the later ones scored nothing.
 */
export function benchSeasonRow(shape: BenchSeasonShape): Insertable<SeasonsTable> {
  return {
    id: BENCH_SEASON,
    name: "cycle bench",
    starts_at: shape.start,
    ends_at: shape.start + (shape.hours + 4 <= 30 * 24 ? 30 * 24 : shape.hours + 24) * HOUR,
    closed_at: null,
    created_at: shape.start,
  };
}

/** The `agents` row projected from an agent's registration record (what ingestion stores). */
export function benchAgentRow(
  shape: BenchSeasonShape,
  registration: EngineRecord,
  registrationSeal: Hex32,
): Insertable<AgentsTable> {
  const { message } = registration.body as {
    message: { creator: string; agentKey: string; style: string };
  };
  return {
    id: registration.agentId,
    season_id: registration.seasonId,
    creator: message.creator,
    style: message.style,
    agent_key: message.agentKey,
    registration_seal: registrationSeal,
    registered_at: shape.start,
  };
}

/** Agent `a`'s creator: 2,500 creators of four agents each (the creator term then has siblings). */
export const benchCreator = (a: number) => hex40(a % 2500);

/**
 * Agent `a`'s records, registration first, from a fixed linear congruential stream seeded by its
 * number: the same records every run.
 */
export function benchAgentRecords(shape: BenchSeasonShape, a: number): EngineRecord[] {
  const creator = benchCreator(a);
  let state = (20261130 + a * 7919) >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const agentId = benchAgentId(a);
  const seasonId = BENCH_SEASON;
  const counts = recordsPerAgent(shape.hours);
  const at = (i: number) => shape.start + (i % shape.hours) * HOUR;
  const signed = (type: "Registration" | "Snapshot" | "Decision" | "Trade", message: object) => ({
    kind: type.toLowerCase() as EngineRecord["kind"],
    agentId,
    seasonId,
    body: sealedRecord(type, BENCH_CHAIN_ID, { agentId, seasonId, ...message }),
  });
  const out: EngineRecord[] = [
    signed("Registration", {
      creator,
      agentKey: hex40(1_000_000 + a),
      style: STYLES[a % STYLES.length]!,
      registeredAt: shape.start,
    }),
  ];
  let nav = 1_000_000_000 + Math.floor(next() * 9_000_000_000); // USDG base units
  for (let i = 0; i < counts.snapshots; i++) {
    const flow = i > 0 && next() < 0.01 ? 100_000_000 : 0;
    nav = Math.round(nav * (1 + (next() - 0.5) * 0.01)) + flow;
    out.push(
      signed("Snapshot", {
        takenAt: at(i),
        nav: String(nav),
        flow: String(flow),
        investedBps: Math.floor(next() * 10_000),
      }),
    );
  }
  for (let i = 0; i < counts.decisions; i++) {
    out.push(
      signed("Decision", {
        decidedAt: at(i * 7) + 60,
        asset: ASSETS[i % 2]!,
        action: next() < 0.5 ? "buy" : "sell",
        source: i % 10 === 0 ? "protective-exit" : "decider",
        confidenceBps: 5_000 + Math.floor(next() * 5_000),
        note: "",
      }),
    );
  }
  for (let i = 0; i < counts.trades; i++) {
    out.push(
      signed("Trade", {
        executedAt: at(i * 31) + 120,
        asset: ASSETS[i % 2]!,
        side: next() < 0.5 ? "buy" : "sell",
        quantity: String(1 + Math.floor(next() * 10)) + "0".repeat(18),
        price: String(150 + Math.floor(next() * 50)) + "0".repeat(18),
        txHash: `0x${(a * 1000 + i).toString(16).padStart(64, "0")}`,
      }),
    );
  }
  for (let i = 0; i < counts.calls; i++) {
    const roll = next();
    const body: CallRecordBody = {
      format: "augur-call/v1",
      chainId: BENCH_CHAIN_ID,
      ledger: LEDGER,
      callId: String(a * 1000 + i),
      agent: hex40(1_000_000 + a),
      agentId,
      seasonId,
      outcome: roll < 0.1 ? "void" : roll < 0.55 ? "hit" : "miss",
      confidenceBps: 5_000 + Math.floor(next() * 5_000),
      resolvedAt: at(i * 13) + 180,
      resolveTx: `0x${(a * 1000 + i).toString(16).padStart(64, "f")}`,
      reveal: null,
      exitPrice: null,
    };
    out.push({ kind: "call", agentId, seasonId, body });
  }
  return out;
}

/** A trade of bench agent `a` stamped `executedAt`: its first trade moved, with a transaction hash of its own (`n`). */
export function benchTrade(shape: BenchSeasonShape, a: number, executedAt: number, n: number): EngineRecord {
  const first = benchAgentRecords(shape, a).find((r) => r.kind === "trade")!;
  const message = {
    ...(first.body as { message: Record<string, unknown> }).message,
    executedAt,
    txHash: `0x${"7".repeat(62)}${a}${n}`,
  };
  return {
    kind: "trade",
    agentId: first.agentId,
    seasonId: BENCH_SEASON,
    body: sealedRecord("Trade", BENCH_CHAIN_ID, message),
  };
}

/** Bench agent `a`'s snapshot at `shape.start + hour · 1 h` (the NAV and share invested vary by agent and hour). */
export function benchSnapshot(shape: BenchSeasonShape, a: number, hour: number): EngineRecord {
  const agentId = benchAgentId(a);
  const nav = 1_000_000_000 + ((a * 7919 + hour * 104_729) % 9_000_000_000);
  const message = {
    agentId,
    seasonId: BENCH_SEASON,
    takenAt: shape.start + hour * HOUR,
    nav: String(nav),
    flow: "0",
    investedBps: (a * 31 + hour) % 10_001,
  };
  return {
    kind: "snapshot",
    agentId,
    seasonId: BENCH_SEASON,
    body: sealedRecord("Snapshot", BENCH_CHAIN_ID, message),
  };
}

/**
 * One more hour of data, as ingestion would add it between two cycles: a snapshot per agent at
 * `shape.start + hour · 1 h`, appended through `appendEngineRecords` (2,500 agents per
 * transaction). Returns the record count.
 */
export async function appendBenchHour(store: Store, shape: BenchSeasonShape, hour: number): Promise<number> {
  let written = 0;
  for (let from = 0; from < shape.agents; from += 2500) {
    const records: EngineRecord[] = [];
    for (let a = from; a < Math.min(shape.agents, from + 2500); a++)
      records.push(benchSnapshot(shape, a, hour));
    await store.db.transaction().execute(async (trx) => {
      written += (await appendEngineRecords(trx, records, shape.start + hour * HOUR)).length;
    });
  }
  return written;
}

/** The log as the seeder has written it so far: its right-edge subtree hashes and its size. */
export interface BenchLogTail {
  readonly frontier: Map<number, Buffer>;
  size: number;
}

/** One column-named row of each table the seeder writes (the store's own column names). */
export interface BenchBatchRows {
  readonly leaves: { leaf_index: number; seal: Hex32; appended_at: number }[];
  readonly nodes: LogNode[];
  readonly records: {
    seal: Hex32;
    kind: string;
    agent_id: string;
    season_id: string;
    body: string;
    leaf_index: number;
    received_at: number;
  }[];
  readonly agents: Insertable<AgentsTable>[];
}

/**
 * The rows of agents `from` … `from + count - 1`, appended after `log` (advanced in place): what
 * either backend's seeder inserts, so both write the same rows.
 */
export function benchBatchRows(
  shape: BenchSeasonShape,
  from: number,
  count: number,
  log: BenchLogTail,
): BenchBatchRows {
  const out: BenchBatchRows = { leaves: [], nodes: [], records: [], agents: [] };
  for (let a = from; a < from + count; a++) {
    const agentRecords = benchAgentRecords(shape, a);
    const texts = agentRecords.map((r) => canonicalJson(r.body));
    // seal = sha256 of the canonical text (as `seal` computes it, without canonicalising twice;
    // bench-season.test.ts checks the seals equal appendEngineRecords').
    const seals = texts.map((text): Hex32 => `0x${hash("sha256", text, "hex")}`);
    const first = log.size;
    seals.forEach((seal, i) => out.leaves.push({ leaf_index: first + i, seal, appended_at: shape.start }));
    out.nodes.push(...appendToFrontier(log.frontier, first, seals));
    agentRecords.forEach((r, i) =>
      out.records.push({
        seal: seals[i]!,
        kind: r.kind,
        agent_id: r.agentId,
        season_id: r.seasonId,
        body: texts[i]!,
        leaf_index: first + i,
        received_at: shape.start,
      }),
    );
    out.agents.push(benchAgentRow(shape, agentRecords[0]!, seals[0]!));
    log.size += seals.length;
  }
  return out;
}

/** Records per agent, its registration included (every agent has the same count). */
const agentRecordCount = (hours: number) =>
  1 + Object.values(recordsPerAgent(hours)).reduce((sum, n) => sum + n, 0);

/**
 * How many agents of this season the store already holds, if its log is exactly theirs: the
 * season row is this shape's, the agents are agent 0 … k - 1 (k < shape.agents), the log holds
 * k agents' records and its last leaf is agent k - 1's last record. Else it refuses the file.
 */
async function seededAgents(store: Store, shape: BenchSeasonShape, size: number, file: string) {
  const refuse = (why: string) =>
    new Error(`seedBenchSeason: ${file} already holds a log (${size} records) that ${why}`);
  const season = await store.db
    .selectFrom("seasons")
    .selectAll()
    .where("id", "=", BENCH_SEASON)
    .executeTakeFirst();
  const expected = benchSeasonRow(shape);
  if (season?.starts_at !== expected.starts_at || season.ends_at !== expected.ends_at)
    throw refuse("is not this shape's season");
  const agents = await store.db
    .selectFrom("agents")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.max("id").as("last")])
    .executeTakeFirstOrThrow();
  const k = Number(agents.n);
  if (k === 0 || k >= shape.agents || agents.last !== benchAgentId(k - 1))
    throw refuse(`is not a prefix of the ${shape.agents} agents' (it has ${k} agents)`);
  if (size !== k * agentRecordCount(shape.hours)) throw refuse(`is not ${k} agents' records`);
  const last = benchAgentRecords(shape, k - 1).at(-1)!;
  if ((await store.log.sealAt(store.db, size - 1)) !== seal(last.body))
    throw refuse(`does not end with agent ${k - 1}'s last record`);
  return k;
}

/**
 * Creates (and migrates) the SQLite store `file`, then writes the season and its agents' records
 * in bulk on a connection of its own. A file that already holds the first agents of this very
 * season (a seed stopped between two batches, or a smaller seed of the same shape) is continued:
 * the agents after them are appended to its log, and the file then holds exactly the rows a
 * whole seed writes (bench-season.test.ts compares them); any other log is refused. Returns the
 * record count. `progress` gets one line per 1,000 agents.
 */
export async function seedBenchSeason(
  file: string,
  shape: BenchSeasonShape,
  progress: (line: string) => void,
): Promise<number> {
  const store = await openStore({ kind: "sqlite", file });
  let seeded: number;
  // Where a seed continues: the log's size and right edge (the log store's own reading of it).
  let log: BenchLogTail;
  try {
    const size = await store.log.size(store.db);
    if (size === 0) await insertSeason(store.db, benchSeasonRow(shape));
    seeded = size === 0 ? 0 : await seededAgents(store, shape, size, file);
    log = { size, frontier: await store.log.frontier(store.db, size) };
  } finally {
    await store.close();
  }
  if (seeded > 0) progress(`  continuing after ${seeded} agents already seeded`);
  const db = new SqliteDatabase(file);
  try {
    db.pragma("foreign_keys = ON");
    db.pragma("synchronous = OFF");
    // A rollback journal, not the store's WAL (openStore's): in WAL every page was written twice
    // (log, then checkpoint), 1.9× the wall and 1.3× the CPU. (OFF is refused: better-sqlite3
    // opens in defensive mode. A killed seed is rolled back to its last committed batch.)
    db.pragma("journal_mode = DELETE");
    db.pragma(`cache_size = -${SEED_CACHE_KIB}`);
    const leaves = db.prepare<[number, string, number]>(
      "INSERT INTO merkle_leaves (leaf_index, seal, appended_at) VALUES (?, ?, ?)",
    );
    const nodes = db.prepare<[number, number, string]>(
      "INSERT INTO merkle_nodes (level, idx, hash) VALUES (?, ?, ?)",
    );
    const records = db.prepare<[string, string, string, string, string, number, number]>(
      "INSERT INTO records (seal, kind, agent_id, season_id, body, signer, signature, cosignature, " +
        "leaf_index, received_at) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?)",
    );
    const agents = db.prepare<[string, string, string, string, string, string, number]>(
      "INSERT INTO agents (id, season_id, creator, style, agent_key, registration_seal, registered_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const writeBatch = db.transaction((from: number, count: number) => {
      const rows = benchBatchRows(shape, from, count, log);
      for (const l of rows.leaves) leaves.run(l.leaf_index, l.seal, l.appended_at);
      for (const n of rows.nodes) nodes.run(n.level, n.idx, n.hash);
      for (const r of rows.records)
        records.run(r.seal, r.kind, r.agent_id, r.season_id, r.body, r.leaf_index, r.received_at);
      for (const g of rows.agents)
        agents.run(g.id, g.season_id, g.creator, g.style, g.agent_key, g.registration_seal, g.registered_at);
    });
    for (let from = seeded; from < shape.agents; from += AGENTS_PER_BATCH) {
      const count = Math.min(AGENTS_PER_BATCH, shape.agents - from);
      writeBatch(from, count);
      if ((from + count) % 1000 === 0 || from + count === shape.agents) {
        progress(`  seeded ${from + count} agents, ${log.size.toLocaleString("en")} records`);
      }
    }
    return log.size;
  } finally {
    db.close();
  }
}

/** The bench season's stored score seals at `asOf`, by agent id. */
export async function benchScoreSeals(
  store: Store,
  asOf: number,
): Promise<{ agent_id: string; seal: string }[]> {
  return store.db
    .selectFrom("scores")
    .select(["agent_id", "seal"])
    .where("season_id", "=", BENCH_SEASON)
    .where("as_of", "=", asOf)
    .orderBy("agent_id")
    .execute();
}
