/**
 * A season of hourly agent records written straight into a store, for the cycle benchmark
 * (`cycle.bench.ts`). Records are sealed exactly as ingestion seals them (`sealedRecord`, the
 * engine's own call-record shape) and appended through `appendEngineRecords`, so the cycle reads
 * what it would read in production; only the signature columns are empty (the cycle never reads
 * them). The mix per agent follows packages/scorer's score.bench.ts: per 720 hours, 720 snapshots,
 * 100 decisions (one in ten a protective exit), 20 trades and 50 resolved calls.
 */
import type { CallRecordBody } from "../indexer/calls";
import { appendEngineRecords, type EngineRecord } from "../records/append";
import { sealedRecord } from "../records/sealed";
import type { Store } from "../store/open";
import { insertSeason } from "../store/queries/seasons";

export const BENCH_SEASON = "bench";
export const BENCH_CHAIN_ID = 31337;
const HOUR = 3600;
const STYLES = ["momentum", "mean-reversion", "trend-following", "market-neutral", "discretionary"] as const;
const ASSETS = ["0x" + "a1".repeat(20), "0x" + "b2".repeat(20)] as const;
const LEDGER = "0x" + "c3".repeat(20);
/** Agents written per transaction: bounded memory, few commits. */
const AGENTS_PER_BATCH = 250;

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

/** One agent's records, from a fixed linear congruential stream seeded by its number. */
function agentRecords(shape: BenchSeasonShape, a: number, creator: string): EngineRecord[] {
  let state = (20261130 + a * 7919) >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const agentId = `agent-${String(a).padStart(5, "0")}`;
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

/**
 * Writes the season and its agents' records; 2,500 creators of four agents each (the creator term
 * then has siblings to average). `progress` gets one line per 1,000 agents.
 */
export async function seedBenchSeason(
  store: Store,
  shape: BenchSeasonShape,
  progress: (line: string) => void,
): Promise<number> {
  await insertSeason(store.db, {
    id: BENCH_SEASON,
    name: "cycle bench",
    starts_at: shape.start,
    ends_at: shape.start + 30 * 24 * HOUR,
    closed_at: null,
    created_at: shape.start,
  });
  let records = 0;
  for (let from = 0; from < shape.agents; from += AGENTS_PER_BATCH) {
    const count = Math.min(AGENTS_PER_BATCH, shape.agents - from);
    await store.db.transaction().execute(async (trx) => {
      const agents = Array.from({ length: count }, (_, k) => {
        const a = from + k;
        const creator = hex40(a % 2500);
        return { a, creator, records: agentRecords(shape, a, creator) };
      });
      const stored = await appendEngineRecords(
        trx,
        agents.flatMap((x) => x.records),
        shape.start,
      );
      let offset = 0;
      const rows = agents.map((x) => {
        const registration = x.records[0]!.body as { message: { agentKey: string; style: string } };
        const row = {
          id: x.records[0]!.agentId,
          season_id: BENCH_SEASON,
          creator: x.creator,
          style: registration.message.style,
          agent_key: registration.message.agentKey,
          registration_seal: stored[offset]!.seal,
          registered_at: shape.start,
        };
        offset += x.records.length;
        return row;
      });
      await trx.insertInto("agents").values(rows).execute();
      records += stored.length;
    });
    if ((from + count) % 1000 === 0 || from + count === shape.agents) {
      progress(`  seeded ${from + count} agents, ${records.toLocaleString("en")} records`);
    }
  }
  return records;
}
