/**
 * `npx tsx packages/engine/src/site/leaderboard.bench.ts`: the season leaderboard of
 * BENCH_AGENTS agents (default 10,000). Measures (1) the first page served over HTTP and
 * (2) the time until it is interactive in headless Chromium (the sort script has enhanced the
 * table), each beside a same-run baseline: the very same HTML bytes served as a static string.
 */
import { performance } from "node:perf_hooks";
import Fastify from "fastify";
import { AUGUR_SCORE_V1, competitionRanks, TERM_NAMES } from "@augur/scorer";
import { buildApp } from "../api/app";
import { appendEngineRecords } from "../records/append";
import { openStore, type Store } from "../store/open";
import { insertSeason } from "../store/queries/seasons";
import { launchChromium } from "./browser";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const START = 1_800_000_000;
const AS_OF = START + 10 * 86_400;
const STYLES = ["momentum", "mean-reversion", "trend-following", "market-neutral", "discretionary"];

/** A pseudo-random but repeatable number in [0, 1). */
const noise = (i: number, k: number) => {
  const x = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
  return x - Math.floor(x);
};

/** One manifest shaped like augur-score/v1's (the real formula object, synthetic measurements). */
function manifest(id: string, creator: string, style: string, i: number, score: number | null) {
  const terms = Object.fromEntries(
    TERM_NAMES.map((t, k) => [t, score === null ? null : Math.round(noise(i, k) * 1000) / 10]),
  );
  return {
    formula: AUGUR_SCORE_V1,
    subject: { agent: id, creator, style, season_id: "s1", as_of: new Date(AS_OF * 1000).toISOString() },
    inputs: {
      snapshot_count: 10,
      snapshot_root: `0x${"11".repeat(32)}`,
      first_snapshot_seal: null,
      last_snapshot_seal: null,
      decision_count: 9,
      own_decision_count: 8,
      trade_count: 6,
    },
    measured:
      score === null
        ? null
        : {
            return: noise(i, 7) / 10,
            sigma: 0.01,
            max_drawdown: 0.02,
            exposure: 0.6,
            days: 10,
            calibration_calls: 6,
            brier: 0.2,
            creator_inputs: [],
            dna: {
              trades_per_day: 0.6,
              decisions_per_day: 0.8,
              holding_hours: 20,
              directional_bias: 0,
              prior_move_alignment: 0.3,
            },
            match: 0.9,
          },
    outputs: {
      terms,
      weights_used: {},
      weighted: score,
      multiplier: score === null ? null : 0.98,
      score,
      reason: score === null ? "too_few_snapshots" : null,
    },
  };
}

export async function seed(): Promise<Store> {
  const store = await openStore({ kind: "sqlite", file: ":memory:" });
  await insertSeason(store.db, {
    id: "s1",
    name: "Bench",
    starts_at: START,
    ends_at: START + 28 * 86_400,
    closed_at: null,
    created_at: START,
  });
  const scores = Array.from({ length: AGENTS }, (_, i) =>
    i % 10 === 9 ? null : Math.round(noise(i, 9) * 1000) / 10,
  );
  const rankOf = competitionRanks(scores);
  for (let from = 0; from < AGENTS; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, AGENTS - from) }, (_, k) => from + k);
    await store.db.transaction().execute(async (trx) => {
      const regs = await appendEngineRecords(
        trx,
        ids.map((i) => ({
          kind: "registration" as const,
          agentId: `agent-${i}`,
          seasonId: "s1",
          body: { bench: i },
        })),
        START,
      );
      await trx
        .insertInto("agents")
        .values(
          ids.map((i, k) => ({
            id: `agent-${i}`,
            season_id: "s1",
            creator: `0x${(i % 3000).toString(16).padStart(40, "0")}`,
            style: STYLES[i % 5]!,
            agent_key: `0x${(i + 1).toString(16).padStart(40, "0")}`,
            registration_seal: regs[k]!.seal,
            registered_at: START,
          })),
        )
        .execute();
      const manifests = ids.map((i) =>
        manifest(
          `agent-${i}`,
          `0x${(i % 3000).toString(16).padStart(40, "0")}`,
          STYLES[i % 5]!,
          i,
          scores[i]!,
        ),
      );
      const sealed = await appendEngineRecords(
        trx,
        ids.map((i, k) => ({
          kind: "score" as const,
          agentId: `agent-${i}`,
          seasonId: "s1",
          body: manifests[k],
        })),
        AS_OF,
      );
      const rows = ids.map((i, k) => ({
        agent_id: `agent-${i}`,
        season_id: "s1",
        as_of: AS_OF,
        formula: "augur-score/v1",
        score: scores[i]!,
        reason: scores[i] === null ? "too_few_snapshots" : null,
        rank: rankOf[i] ?? null,
        terms: JSON.stringify(manifests[k]!.outputs.terms),
        seal: sealed[k]!.seal,
        created_at: AS_OF,
      }));
      for (let k = 0; k < rows.length; k += 300)
        await trx
          .insertInto("scores")
          .values(rows.slice(k, k + 300))
          .execute();
    });
  }
  return store;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function timeFetch(url: string): Promise<number[]> {
  for (let i = 0; i < 3; i++) await (await fetch(url)).text(); // warm up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    await res.text();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const store = await seed();
  console.log(
    `seeded ${AGENTS} agents with sealed manifests in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp({ store, chainId: 31337, now: () => AS_OF });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  const pageHtml = await (await fetch(`${url}/?season=s1`)).text();
  const baseline = Fastify();
  baseline.get("/", async (_req, reply) => reply.type("text/html; charset=utf-8").send(pageHtml));
  const baseUrl = await baseline.listen({ host: "127.0.0.1", port: 0 });

  const rows: [string, number[]][] = [
    ["leaderboard page 1 (sorted by rank)", await timeFetch(`${url}/?season=s1`)],
    [
      `leaderboard page ${Math.ceil(AGENTS / 100)} (last)`,
      await timeFetch(`${url}/?season=s1&page=${Math.ceil(AGENTS / 100)}`),
    ],
    ["leaderboard page 1 sorted by creator", await timeFetch(`${url}/?season=s1&sort=creator`)],
    ["baseline: the same HTML as a static string", await timeFetch(`${baseUrl}/`)],
  ];
  console.log(
    `\nServed over HTTP (loopback), ${RUNS} requests each, ${(pageHtml.length / 1024).toFixed(0)} KiB page:`,
  );
  for (const [name, xs] of rows)
    console.log(`  ${name.padEnd(46)} median ${median(xs).toFixed(1)} ms   p90 ${p90(xs).toFixed(1)} ms`);

  const browser = await launchChromium();
  const interactive = async (target: string): Promise<number[]> => {
    const context = await browser.newContext();
    const times: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 10) + 1; i++) {
      const page = await context.newPage();
      const t = performance.now();
      await page.goto(target, { waitUntil: "commit" });
      await page.waitForSelector("table[data-enhanced=true]");
      if (i > 0) times.push(performance.now() - t); // the first load warms the browser
      await page.close();
    }
    await context.close();
    return times;
  };
  const site = await interactive(`${url}/?season=s1`);
  const base = await interactive(`${baseUrl}/`);
  console.log(
    `\nInteractive in headless Chromium (navigation → sort script has enhanced the table), ${site.length} loads each:`,
  );
  console.log(
    `  ${"leaderboard page 1".padEnd(46)} median ${median(site).toFixed(1)} ms   p90 ${p90(site).toFixed(1)} ms`,
  );
  console.log(
    `  ${"baseline: the same HTML as a static string".padEnd(46)} median ${median(base).toFixed(1)} ms   p90 ${p90(base).toFixed(1)} ms`,
  );
  console.log(`\nTargets: first page served < 100 ms, interactive < 1000 ms.`);
  await browser.close();
  await baseline.close();
  await app.close();
  await store.close();
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
