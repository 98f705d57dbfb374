/**
 * `npm run bench -- score`: GET /api/v1/agents/:id/score against a bare Fastify route, side by
 * side in one run (autocannon, loopback). The store: test-support/api/score-bench-store.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { buildApp } from "../../src/api/app";
import { CONNECTIONS, measure, openBenchStore, row, SCORE_PATHS, SECONDS, START } from "./score-bench-store";

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "augur-bench-"));
  const store = await openBenchStore(dir);
  const app = await buildApp({ store, chainId: 31337, now: () => START });
  const bare = Fastify();
  bare.get("/bare", async () => ({ status: "ok", score: 61.3, seal: `0x${"ab".repeat(32)}` }));
  try {
    const appUrl = await app.listen({ port: 0, host: "127.0.0.1" });
    const bareUrl = await bare.listen({ port: 0, host: "127.0.0.1" });
    const paths = SCORE_PATHS;
    const check = await fetch(`${appUrl}${paths[0]}`);
    if (check.status !== 200) throw new Error(`score route answered ${check.status}`);
    // Warm both (JIT, SQLite page cache) before measuring.
    await measure(bareUrl, ["/bare"], 2);
    await measure(appUrl, paths, 2);
    const baseline = await measure(bareUrl, ["/bare"]);
    const score = await measure(appUrl, paths);
    console.log(`autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, loopback, one process`);
    console.log(row("bare Fastify route", baseline));
    console.log(row("GET /api/v1/agents/:id/score", score));
    console.log(`ratio score/bare: ${(score.requests.average / baseline.requests.average).toFixed(2)}`);
    const ok = score.requests.average >= 5000 && score.latency.p99 <= 20 && score.errors + score.non2xx === 0;
    console.log(`target (≥ 5,000 req/s, p99 ≤ 20 ms): ${ok ? "met" : "NOT met"}`);
  } finally {
    await app.close();
    await bare.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
