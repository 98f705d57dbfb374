// The synthetic season of the scorer's benches (score.bench.ts, and the engine's score-pool bench):
// every agent's records from a fixed linear congruential stream seeded by its number.
import { STYLES } from "./formula";
import type { AgentInput, CallInput, DecisionInput, SnapshotInput, TradeInput } from "./types";

/** A bench season of `agentCount` agents with `snapshotCount` hourly snapshots each (+ 100 decisions, 20 trades, 50 calls). */
export function benchSeason(agentCount: number, snapshotCount: number) {
  const start = Date.parse("2026-11-01T00:00:00Z");
  const times = Array.from({ length: snapshotCount }, (_, h) =>
    new Date(start + h * 3_600_000).toISOString(),
  );

  const agents: AgentInput[] = Array.from({ length: agentCount }, (_, a) => ({
    id: `agent-${String(a).padStart(5, "0")}`,
    creator: `creator-${a % 2500}`,
    style: STYLES[a % STYLES.length]!,
    active: true,
  }));
  const header = {
    season: { id: "bench", start: times[0]!, end: "2026-12-31T00:00:00.000Z" },
    as_of: times[times.length - 1]!,
    agents,
    prior_scores: [],
  };

  /** One agent's records from a fixed linear congruential stream seeded by its number. */
  function agentRecords(a: number) {
    let state = (20261130 + a * 7919) >>> 0;
    const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const agent = agents[a]!.id;
    const snapshots: SnapshotInput[] = [];
    let nav = 1000 + Math.floor(next() * 9000);
    for (let i = 0; i < snapshotCount; i++) {
      const flow = i > 0 && next() < 0.01 ? 100 : 0;
      nav = Math.round((nav * (1 + (next() - 0.5) * 0.01) + flow) * 100) / 100;
      snapshots.push({ agent, at: times[i]!, nav, flow, invested: Math.round(next() * 100) / 100 });
    }
    const decisions: DecisionInput[] = Array.from({ length: 100 }, (_, i) => ({
      agent,
      at: times[(i * 7) % snapshotCount]!,
      decider: i % 10 === 0 ? "protective_exit" : "agent",
      asset: "TSLA",
      action: "buy",
    }));
    const trades: TradeInput[] = Array.from({ length: 20 }, (_, i) => ({
      agent,
      at: times[(i * 31) % snapshotCount]!,
      asset: i % 2 ? "TSLA" : "AAPL",
      side: next() < 0.5 ? "buy" : "sell",
      quantity: 1 + Math.floor(next() * 10),
      price: Math.round((150 + next() * 50) * 100) / 100,
    }));
    const calls: CallInput[] = Array.from({ length: 50 }, (_, i) => ({
      agent,
      resolved_at: times[(i * 13) % snapshotCount]!,
      confidence: Math.round(next() * 100) / 100,
      outcome: next() < 0.1 ? "void" : next() < 0.55 ? "hit" : "miss",
    }));
    return { snapshots, decisions, trades, calls };
  }
  return { agents, header, agentRecords };
}
