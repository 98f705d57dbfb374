import type { AgentRecords } from "../store/agent-records";
import { tradePointOf } from "@augur/records";
import type { AgentBook } from "./view";

const byTime = <T extends { readonly at: number }>(x: T, y: T) => x.at - y.at;

/**
 * One agent's snapshots and trades (from the cycle's decoded rows), each in time order; records
 * of equal time keep their log order (the sort is stable). Decisions are not read: a day counts
 * as operating only when it holds a trade.
 */
export function agentBook(agentId: string, records: AgentRecords): AgentBook {
  const s = records.snapshots;
  const snapshots = Array.from({ length: s.length }, (_, i) => ({
    at: s.at[i]!,
    nav: s.nav[i]!,
    flow: s.flow[i]!,
    invested: s.invested[i]!,
  }));
  return {
    agentId,
    snapshots: snapshots.sort(byTime),
    trades: records.trades.map((t) => tradePointOf(t)).sort(byTime),
  };
}
