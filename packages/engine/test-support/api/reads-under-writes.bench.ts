/**
 * `npm run bench -- reads-under-writes`: GET /api/v1/agents/:id/score idle, then while one writer
 * posts BENCH_WRITES records a second (default 100: pre-signed Snapshots of 40 agents), against
 * `augur serve` in a child process (the production path) once with `--ingest-workers 0` (records
 * checked and stored on the request loop) and once with the record writer thread and its ingest
 * workers (BENCH_INGEST_WORKERS, default as serve's), side by side with ratios to idle, and the
 * server's request-loop CPU per record (Linux /proc: the main thread's, not the writer's).
 * The store: test-support/api/score-bench-store.ts (BENCH_DATA_DIR keeps it between runs).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_INGEST_WORKERS } from "../../src/records/ingest-pool";
import type { Submission } from "../../src/records/ingest";
import { openStore } from "../../src/store/open";
import { findSeason, insertSeason } from "../../src/store/queries/seasons";
import { registration, sign, snapshot, testWallet } from "../records/testing";
import {
  CONNECTIONS,
  measure,
  row,
  SCORE_PATHS,
  SECONDS,
  seed,
  type AutocannonResult,
} from "./score-bench-store";

const RATE = Number(process.env.BENCH_WRITES ?? 100);
const WORKERS = Number(process.env.BENCH_INGEST_WORKERS ?? DEFAULT_INGEST_WORKERS);
const WRITERS = 40;
const WARM_SECONDS = 2;
const CPU_SECONDS = 3;
const BIN = join(__dirname, "..", "..", "bin", "augur.cjs");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unixNow = () => Math.floor(Date.now() / 1000);

/** CPU time of a process's main thread (Linux: its task's utime + stime at USER_HZ 100), ms. */
function mainThreadCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function post(url: string, body: string | Submission): Promise<number> {
  const res = await fetch(`${url}/api/v1/records`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Registers WRITERS fresh agents in season "w" and signs `count` Snapshots of theirs, dated just now. */
async function writerRecords(url: string, run: string, count: number): Promise<string[]> {
  const t = unixNow();
  const writers = Array.from({ length: WRITERS }, (_, k) => {
    const name = `writer-${run}-${k}`;
    return { name, agent: testWallet(`bench ${name}`), creator: testWallet(`bench creator ${name}`) };
  });
  for (const w of writers) {
    const message = { ...registration(w.name, w.agent, w.creator, "w"), registeredAt: t - 300 };
    const status = await post(url, await sign("Registration", message, w.agent, w.creator));
    if (status !== 201) throw new Error(`registering a writer answered ${status}`);
  }
  const bodies: string[] = [];
  for (let j = 0; j < count; j++) {
    const w = writers[j % WRITERS]!;
    const moment = t - 299 + Math.floor(j / WRITERS);
    bodies.push(JSON.stringify(await sign("Snapshot", snapshot(w.name, moment, "1000000000", "w"), w.agent)));
  }
  return bodies;
}

/** Posts `bodies` at RATE a second until stopped; `answered()` counts so far, the call waits for every answer. */
function startWriter(url: string, bodies: string[]) {
  const t0 = performance.now();
  const posts: Promise<number>[] = [];
  let answered = 0;
  const timer = setInterval(() => {
    const due = Math.min(bodies.length, Math.floor(((performance.now() - t0) / 1000) * RATE));
    while (posts.length < due)
      posts.push(
        post(url, bodies[posts.length]!)
          .catch(() => 0)
          .finally(() => (answered += 1)),
      );
  }, 5);
  const stop = async () => {
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    const statuses = await Promise.all(posts);
    const stored = statuses.filter((s) => s === 201).length;
    return { rate: posts.length / seconds, stored, refused: statuses.length - stored };
  };
  return Object.assign(stop, { answered: () => answered });
}

async function serve(dataDir: string, workers: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--port", "0", "--data-dir", dataDir, "--ingest-workers", String(workers)],
    {
      env: { ...process.env, AUGUR_WRITES_PER_MINUTE: "1000000", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.on("exit", (code) => reject(new Error(`augur serve exited ${code}: ${out}`)));
  });
  return { child, url };
}

async function run(dataDir: string, workers: number) {
  const { child, url } = await serve(dataDir, workers);
  try {
    await measure(url, SCORE_PATHS, WARM_SECONDS);
    const idle = await measure(url, SCORE_PATHS);
    const bodies = await writerRecords(
      url,
      `${workers}-${Date.now()}`,
      RATE * (SECONDS + WARM_SECONDS + CPU_SECONDS + 2),
    );
    const stop = startWriter(url, bodies);
    await sleep(WARM_SECONDS * 1000);
    // Writes alone first: the server's request loop CPU per record, whatever else the machine runs.
    const cpu0 = mainThreadCpuMs(child.pid!);
    const answered0 = stop.answered();
    await sleep(CPU_SECONDS * 1000);
    const cpuPerRecord = (mainThreadCpuMs(child.pid!) - cpu0) / (stop.answered() - answered0);
    const loaded = await measure(url, SCORE_PATHS);
    return { idle, loaded, cpuPerRecord, writes: await stop() };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

async function main() {
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), "augur-bench-"));
  const file = join(dataDir, "augur.sqlite");
  const store = existsSync(file) ? await openStore({ kind: "sqlite", file }) : await seed(file);
  // The writers' season runs on the wall clock, as `augur serve` does.
  if (!(await findSeason(store.db, "w"))) {
    const t = unixNow();
    await insertSeason(store.db, {
      id: "w",
      name: "writers",
      starts_at: t - 86400,
      ends_at: t + 365 * 86400,
      closed_at: null,
      created_at: t - 86400,
    });
  }
  await store.close();
  try {
    const load0 = loadavg()[0]!;
    const inline = await run(dataDir, 0);
    const pooled = await run(dataDir, WORKERS);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, loopback, augur serve in a child process; ` +
        `load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
    );
    const lines = (name: string, r: Awaited<ReturnType<typeof run>>) => {
      const vs = (a: AutocannonResult) => (a.requests.average / r.idle.requests.average).toFixed(2);
      console.log(row(`${name}, idle`, r.idle));
      console.log(
        `${row(`${name}, ${RATE} writes/s`, r.loaded)}   ${vs(r.loaded)}× idle; ` +
          `request loop ${r.cpuPerRecord.toFixed(2)} ms CPU/record; writer ${r.writes.rate.toFixed(0)}/s, ` +
          `${r.writes.stored} stored, ${r.writes.refused} refused`,
      );
    };
    lines("inline", inline);
    lines(`writer, ${WORKERS} worker${WORKERS === 1 ? "" : "s"}`, pooled);
    const r = pooled.loaded;
    const ok =
      r.latency.p99 <= 10 &&
      r.requests.average >= 0.8 * pooled.idle.requests.average &&
      r.errors + r.non2xx === 0 &&
      pooled.writes.refused === 0;
    console.log(
      `target with the writer (p99 ≤ 10 ms, ≥ 0.8× idle, every record stored): ${ok ? "met" : "NOT met"}`,
    );
  } finally {
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
