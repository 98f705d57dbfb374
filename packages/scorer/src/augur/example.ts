// The worked example of docs/augur-score-v1.md as a season input (example.test.ts checks the
// figures the document quotes).
import type { SeasonInput } from "./types";

const day = (d: number, h = 0) =>
  `2026-11-${String(1 + d).padStart(2, "0")}T${String(h).padStart(2, "0")}:00:00Z`;
const decision = (i: number) => ({
  agent: "ada",
  at: day(0, i),
  decider: "agent" as const,
  asset: "TSLA",
  action: "buy",
});

export const WORKED_EXAMPLE: SeasonInput = {
  season: { id: "s1", start: day(0), end: day(29) },
  as_of: day(10),
  agents: [
    { id: "ada", creator: "c1", style: "trend-following", active: true },
    { id: "bob", creator: "c1", style: "discretionary", active: true },
  ],
  snapshots: [
    { agent: "ada", at: day(0), nav: 1000, flow: 0, invested: 0.5 },
    { agent: "ada", at: day(1), nav: 1020, flow: 0, invested: 0.6 },
    { agent: "ada", at: day(2), nav: 1509.8, flow: 500, invested: 0.6 },
    { agent: "ada", at: day(3), nav: 1555.094, flow: 0, invested: 0.7 },
  ],
  decisions: [
    ...Array.from({ length: 8 }, (_, i) => decision(i)),
    { agent: "ada", at: day(0, 9), decider: "protective_exit", asset: "TSLA", action: "exit" },
  ],
  trades: [
    { agent: "ada", at: day(0, 0), asset: "TSLA", side: "buy", quantity: 2, price: 100 },
    { agent: "ada", at: day(0, 10), asset: "TSLA", side: "buy", quantity: 1, price: 104 },
    { agent: "ada", at: day(1, 6), asset: "TSLA", side: "sell", quantity: 3, price: 110 },
    { agent: "ada", at: day(1, 16), asset: "AAPL", side: "buy", quantity: 1, price: 200 },
    { agent: "ada", at: day(2, 4), asset: "AAPL", side: "sell", quantity: 1, price: 196 },
  ],
  calls: [
    { agent: "ada", resolved_at: day(1), confidence: 0.8, outcome: "hit" },
    { agent: "ada", resolved_at: day(2), confidence: 0.8, outcome: "hit" },
    { agent: "ada", resolved_at: day(3), confidence: 0.6, outcome: "miss" },
    { agent: "ada", resolved_at: day(4), confidence: 0.5, outcome: "hit" },
    { agent: "ada", resolved_at: day(5), confidence: 1, outcome: "hit" },
    { agent: "ada", resolved_at: day(6), confidence: 0.9, outcome: "void" },
  ],
  prior_scores: [
    {
      agent: "bob",
      season_id: "s0",
      performance: 64,
      seal: "0x1111111111111111111111111111111111111111111111111111111111111111",
      sealed_at: "2026-10-31T00:00:00Z",
    },
  ],
};
