// `npx tsx packages/scorer/src/augur/score.bench.ts` (or `npm run bench score`): scores a season
// of 10,000 agents × 720 hourly snapshots (+ 50 calls, 100 decisions, 20 trades each) and prints
// the time and peak memory beside a bare node:crypto pass that sha256es the same snapshot
// records (the floor for sealing them). BENCH_AGENTS / BENCH_SNAPSHOTS shrink it for a quick run.
import { createHash } from "node:crypto";
import { validateSeasonInput } from "./input";
import { scoreSeason } from "./season";
import type { CallInput, DecisionInput, SeasonInput, SnapshotInput, TradeInput } from "./types";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 720);
const HOUR = 3_600_000;
const START = Date.parse("2026-11-01T00:00:00Z");
const STYLES = ["momentum", "mean-reversion", "trend-following", "market-neutral", "discretionary"] as const;

/** A fixed linear congruential stream, so every run builds the same season. */
let state = 20261130;
function next(): number {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 2 ** 32;
}

function buildSeason(): SeasonInput {
  const times = Array.from({ length: SNAPSHOTS }, (_, h) => new Date(START + h * HOUR).toISOString());
  const asOf = times[times.length - 1]!;
  const agents = [];
  const snapshots: SnapshotInput[] = [];
  const decisions: DecisionInput[] = [];
  const trades: TradeInput[] = [];
  const calls: CallInput[] = [];
  for (let a = 0; a < AGENTS; a++) {
    const id = `agent-${String(a).padStart(5, "0")}`;
    agents.push({ id, creator: `creator-${a % 2500}`, style: STYLES[a % STYLES.length]!, active: true });
    let nav = 1000 + Math.floor(next() * 9000);
    for (let i = 0; i < SNAPSHOTS; i++) {
      const flow = i > 0 && next() < 0.01 ? 100 : 0;
      nav = Math.round((nav * (1 + (next() - 0.5) * 0.01) + flow) * 100) / 100;
      snapshots.push({ agent: id, at: times[i]!, nav, flow, invested: Math.round(next() * 100) / 100 });
    }
    for (let i = 0; i < 100; i++)
      decisions.push({
        agent: id,
        at: times[(i * 7) % SNAPSHOTS]!,
        decider: i % 10 === 0 ? "protective_exit" : "agent",
        asset: "TSLA",
        action: "buy",
      });
    for (let i = 0; i < 20; i++)
      trades.push({
        agent: id,
        at: times[(i * 31) % SNAPSHOTS]!,
        asset: i % 2 ? "TSLA" : "AAPL",
        side: next() < 0.5 ? "buy" : "sell",
        quantity: 1 + Math.floor(next() * 10),
        price: Math.round((150 + next() * 50) * 100) / 100,
      });
    for (let i = 0; i < 50; i++)
      calls.push({
        agent: id,
        resolved_at: times[(i * 13) % SNAPSHOTS]!,
        confidence: Math.round(next() * 100) / 100,
        outcome: next() < 0.1 ? "void" : next() < 0.55 ? "hit" : "miss",
      });
  }
  return {
    season: { id: "bench", start: times[0]!, end: "2026-12-31T00:00:00.000Z" },
    as_of: asOf,
    agents,
    snapshots,
    decisions,
    trades,
    calls,
    prior_scores: [],
  };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const gc = (globalThis as { gc?: () => void }).gc;
const built = performance.now();
const season = buildSeason();
gc?.();
const afterBuild = process.memoryUsage();
console.log(
  `season: ${AGENTS} agents × ${SNAPSHOTS} snapshots = ${season.snapshots.length.toLocaleString("en")} snapshots, ` +
    `${season.decisions.length.toLocaleString("en")} decisions, ${season.calls.length.toLocaleString("en")} calls ` +
    `(built in ${seconds(performance.now() - built)}, heap ${mb(afterBuild.heapUsed)}, rss ${mb(afterBuild.rss)})`,
);

// The floor: one bare sha256 of each snapshot record's JSON, nothing else.
let t = performance.now();
let xor = 0;
for (const row of season.snapshots) xor ^= createHash("sha256").update(JSON.stringify(row)).digest()[0]!;
const floorMs = performance.now() - t;

t = performance.now();
validateSeasonInput(season);
const validateMs = performance.now() - t;

t = performance.now();
const result = scoreSeason(season);
const scoreMs = performance.now() - t;
const peakRss = process.resourceUsage().maxRSS * 1024;

const scored = result.rows.filter((r) => r.score !== null).length;
console.log(`bare node:crypto sha256 of the snapshot records: ${seconds(floorMs)} (checksum ${xor})`);
console.log(`validate season.json:                         ${seconds(validateMs)}`);
console.log(
  `score (seal snapshots, Merkle roots, measure, seal manifests): ${seconds(scoreMs)} ` +
    `= ${(scoreMs / floorMs).toFixed(2)}× the sha256 floor; ${scored} rows scored`,
);
console.log(
  `validate + score: ${seconds(validateMs + scoreMs)} (target < 5 s); peak RSS ${mb(peakRss)} (target < 1 GB); ` +
    `${((validateMs + scoreMs) / (AGENTS * SNAPSHOTS)) * 1e6} ns per snapshot`,
);
