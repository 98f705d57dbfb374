/**
 * `npx tsx packages/engine/test-support/site/leaderboard.bench.ts`: the season leaderboard of
 * BENCH_AGENTS agents (default 10,000). Measures (1) the first page served over HTTP and
 * (2) the time until it is interactive in headless Chromium (the sort script has enhanced the
 * table), each beside a same-run baseline: the very same HTML bytes served as a static string.
 */
import { performance } from "node:perf_hooks";
import Fastify from "fastify";
import { buildApp } from "../../src/api/app";
import { launchChromium } from "./browser";
import { AS_OF, seedManyAgents } from "./many-agents";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
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
  const store = await seedManyAgents(AGENTS);
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
