/**
 * `npx tsx packages/engine/test-support/referee/serve.bench.ts`: what the referee costs where it now runs
 * (the hourly cycle) and what each route costs a request, over BENCH_AGENTS agents (default
 * 1,000) with BENCH_CALLS resolved calls each (default 100) on 4 pairs × 720 hourly closes, in a
 * temporary SQLite file. The cycle's referee step is timed once (it runs the whole season); each
 * route is timed on its first request after the board (cold: parse the board, rebuild the input)
 * and then as the mean of repeated requests (warm). No timed assertions.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/api/app";
import { storeSealedCloses } from "../../src/closes/cache";
import { HOUR_SECONDS } from "../../src/closes/record";
import { runCycle } from "../../src/cycle/run";
import { anchorStep, refereeStep } from "../../src/cycle/steps";
import { FakeKeeper } from "../cycle/testing";
import { appendEngineRecords, type EngineRecord } from "../../src/store/append";
import { openStore } from "../../src/store/open";
import { insertSeason } from "../../src/store/queries/seasons";
import { testCallRecord, testCloses } from "./testing";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const HOURS = 720;
const SEASON = "bench";
const H0 = 500_000; // an hour number: 2027-01-15T08:00Z
const PAIRS = [1, 2, 3, 4].map((k) => `0x${String(k).repeat(40)}`);

const ms = (t: number) => `${t.toFixed(1)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "augur-referee-serve-"));
  const store = await openStore({ kind: "sqlite", file: join(dir, "bench.sqlite") });
  try {
    await insertSeason(store.db, {
      id: SEASON,
      name: "referee serve bench",
      starts_at: H0 * HOUR_SECONDS,
      ends_at: (H0 + HOURS) * HOUR_SECONDS,
      closed_at: null,
      created_at: H0 * HOUR_SECONDS,
    });
    let state = 20261130;
    const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (const [k, pair] of PAIRS.entries()) {
      const base = 100 + 50 * k;
      await storeSealedCloses(
        store,
        testCloses(pair, H0, H0 + HOURS, (h) => base * (1 + 0.05 * Math.sin(h / (6 + k)) + 0.01 * next())),
        0,
      );
    }
    for (let from = 0; from < AGENTS; from += 100) {
      const calls: EngineRecord[] = [];
      for (let a = from; a < Math.min(AGENTS, from + 100); a++) {
        for (let i = 0; i < CALLS; i++) {
          calls.push(
            testCallRecord({
              agentId: `agent-${String(a).padStart(5, "0")}`,
              seasonId: SEASON,
              callId: a * 100_000 + i,
              asset: PAIRS[Math.floor(next() * PAIRS.length)]!,
              revealedAt: (H0 + Math.floor(next() * (HOURS - 30))) * HOUR_SECONDS + 600,
              windowHours: [1, 4, 24][Math.floor(next() * 3)]!,
              direction: next() < 0.5 ? "up" : "down",
              confidenceBps: 5_000 + Math.floor(next() * 5_000),
            }),
          );
        }
      }
      await store.db.transaction().execute((trx) => appendEngineRecords(trx, calls, 0));
    }
    console.log(
      `${AGENTS.toLocaleString("en")} agents × ${CALLS} calls, ${PAIRS.length} pairs × ${HOURS} h; load ${loadavg()[0]!.toFixed(1)}`,
    );

    const asOf = (H0 + HOURS) * HOUR_SECONDS;
    const [report, cycleMs] = await timed(() =>
      runCycle({ store, steps: [anchorStep(new FakeKeeper()), refereeStep()], now: () => asOf }),
    );
    console.log(`cycle (anchor + referee step, ${report.refereeBoards} board): ${ms(cycleMs)}`);

    const app = await buildApp({ store, chainId: 31337, now: () => asOf });
    const get = async (url: string) => {
      const res = await app.inject({ method: "GET", url });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.body.length;
    };
    const routes = ["", "/board", "/input", "/agents/agent-00007"].map(
      (p) => `/api/v1/referee/${SEASON}${p}`,
    );
    for (const url of routes) {
      const [bytes, cold] = await timed(() => get(url));
      const [, warm] = await timed(async () => {
        for (let i = 0; i < 10; i++) await get(url);
      });
      console.log(
        `GET ${url}: first ${ms(cold)}, then ${ms(warm / 10)} each (${(bytes / 1024).toFixed(0)} KiB)`,
      );
    }
    await app.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
