/**
 * The score benches' store and load (score.bench.ts, reads-under-writes.bench.ts): BENCH_AGENTS agents
 * (default 10,000) with BENCH_HOURS hourly score rows each (default 24) in a SQLite file, and
 * autocannon (loopback, BENCH_CONNECTIONS connections for BENCH_SECONDS seconds).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/store/open";
import { insertAnchor } from "../../src/store/queries/anchors";
import { registerSeedAgents, sealSeedScores, seasonStore } from "../store/seed";

export interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as Autocannon;

export const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
export const HOURS = Number(process.env.BENCH_HOURS ?? 24);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const START = 1_800_000_000;

/** A SQLite store of AGENTS agents with HOURS hourly scores each, in `file`. */
export async function seed(file: string) {
  const store = await seasonStore({ file, startsAt: START, name: "bench" });
  const t0 = Date.now();
  for (let from = 0; from < AGENTS; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, AGENTS - from) }, (_, i) => `agent-${from + i}`);
    await store.db.transaction().execute(async (trx) => {
      await registerSeedAgents(
        trx,
        ids.map((id, i) => ({
          id,
          creator: `0x${(from + i).toString(16).padStart(40, "0")}`,
          style: "momentum",
          agentKey: `0x${(from + i + 1).toString(16).padStart(40, "0")}`,
          registration: { bench: "registration", id },
        })),
        START,
      );
      for (let h = 0; h < HOURS; h++) {
        const asOf = START + h * 3600;
        await sealSeedScores(
          trx,
          ids.map((id, i) => ({
            agentId: id,
            manifest: { formula: "augur-score/v1", id, asOf, terms: { performance: 50 + (h % 7) } },
            row: {
              formula: "augur-score/v1",
              score: 40 + ((from + i + h) % 600) / 10,
              reason: null,
              rank: 1 + ((from + i) % AGENTS),
              terms: JSON.stringify({ performance: 50, risk: 61.2, consistency: 70.4, longevity: 12.5 }),
            },
          })),
          asOf,
        );
      }
    });
  }
  const size = await store.log.size(store.db);
  await insertAnchor(store.db, {
    anchor_index: 0,
    tree_size: size,
    root: await store.log.root(store.db, size),
    chain_id: 31337,
    registry: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
    tx_hash: `0x${"ab".repeat(32)}`,
    block_number: 1,
    block_hash: `0x${"cd".repeat(32)}`,
    anchored_at: START,
    recorded_at: START,
  });
  console.log(
    `seeded ${AGENTS} agents × ${HOURS} hourly scores (${size} log leaves) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  return store;
}

/** Autocannon against `url`, cycling through `paths`. */
export async function measure(url: string, paths: string[], duration = SECONDS): Promise<AutocannonResult> {
  let i = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [
      { setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }) },
    ],
  });
}

/** BENCH_DB=<file>: seed it once and reuse it on later runs (seeding takes about a minute). */
export async function openBenchStore(dir: string) {
  const reuse = process.env.BENCH_DB;
  return reuse && existsSync(reuse)
    ? openStore({ kind: "sqlite", file: reuse })
    : seed(reuse ?? join(dir, "augur.sqlite"));
}

/** 1,000 score paths spread over the agents. */
export const SCORE_PATHS = Array.from(
  { length: 1000 },
  (_, k) => `/api/v1/agents/agent-${(k * 7919) % AGENTS}/score?season_id=s1`,
);

/** One line of figures. */
export function row(name: string, r: AutocannonResult): string {
  return `${name.padEnd(28)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(3)} ms   p99 ${String(r.latency.p99).padStart(3)} ms   errors ${r.errors + r.non2xx}`;
}
