// Test helper (not a test file): builds small season inputs from compact agent specs.
import type { Hex32 } from "../hex";
import type { Style } from "./formula";
import type {
  CallInput,
  DecisionInput,
  PriorScoreInput,
  SeasonInput,
  SnapshotInput,
  TradeInput,
} from "./types";

export const SEASON_START = "2026-11-01T00:00:00Z";
export const SEASON_END = "2026-12-01T00:00:00Z";
/** 21 days after the start: longevity is full. */
export const AS_OF = "2026-11-22T00:00:00Z";

const HOUR = 3_600_000;

export function hoursAfterStart(hours: number): string {
  return new Date(Date.parse(SEASON_START) + hours * HOUR).toISOString().replace(".000Z", "Z");
}

export interface AgentSpec {
  readonly id: string;
  readonly creator?: string;
  readonly style?: Style;
  readonly active?: boolean;
  /** One snapshot per hour from the season start. */
  readonly navs: readonly number[];
  readonly flows?: readonly number[];
  readonly invested?: number;
  /** Decisions by the agent's own decider (default 5: just eligible). */
  readonly ownDecisions?: number;
  readonly protectiveExits?: number;
  readonly systemHolds?: number;
  readonly trades?: readonly Omit<TradeInput, "agent">[];
  readonly calls?: readonly Omit<CallInput, "agent">[];
}

export function agentRows(spec: AgentSpec) {
  const snapshots: SnapshotInput[] = spec.navs.map((nav, i) => ({
    agent: spec.id,
    at: hoursAfterStart(i),
    nav,
    flow: spec.flows?.[i] ?? 0,
    invested: spec.invested ?? 0.5,
  }));
  const decision = (decider: DecisionInput["decider"], i: number): DecisionInput => ({
    agent: spec.id,
    at: hoursAfterStart(i),
    decider,
    asset: "TSLA",
    action: "hold",
  });
  const decisions: DecisionInput[] = [
    ...Array.from({ length: spec.ownDecisions ?? 5 }, (_, i) => decision("agent", i)),
    ...Array.from({ length: spec.protectiveExits ?? 0 }, (_, i) => decision("protective_exit", i)),
    ...Array.from({ length: spec.systemHolds ?? 0 }, (_, i) => decision("system_hold", i)),
  ];
  const trades: TradeInput[] = (spec.trades ?? []).map((t) => ({ agent: spec.id, ...t }));
  const calls: CallInput[] = (spec.calls ?? []).map((c) => ({ agent: spec.id, ...c }));
  return { snapshots, decisions, trades, calls };
}

export function makeSeason(
  specs: readonly AgentSpec[],
  options: { prior_scores?: PriorScoreInput[]; as_of?: string } = {},
): SeasonInput {
  const rows = specs.map(agentRows);
  return {
    season: { id: "s1", start: SEASON_START, end: SEASON_END },
    as_of: options.as_of ?? AS_OF,
    agents: specs.map((s) => ({
      id: s.id,
      creator: s.creator ?? `creator-of-${s.id}`,
      style: s.style ?? "discretionary",
      active: s.active ?? true,
    })),
    snapshots: rows.flatMap((r) => r.snapshots),
    decisions: rows.flatMap((r) => r.decisions),
    trades: rows.flatMap((r) => r.trades),
    calls: rows.flatMap((r) => r.calls),
    prior_scores: options.prior_scores ?? [],
  };
}

export function fakeSeal(n: number): Hex32 {
  return `0x${n.toString(16).padStart(64, "0")}`;
}
