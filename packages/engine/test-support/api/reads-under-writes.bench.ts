/**
 * `npm run bench -- reads-under-writes`: GET /api/v1/agents/:id/score idle, then while one writer
 * posts BENCH_WRITES records a second (default 100: pre-signed Snapshots of 40 agents, posted from
 * a child process, post-at-rate.ts, as an agent's would be), in BENCH_ROUNDS alternating rounds
 * (default 5, BENCH_SECONDS each: idle, then with the writer, and again; each round's ratio to the idle
 * round just before it, the median printed with the spread), against `augur serve` in a child
 * process (the production path) once with `--ingest-workers 0` (records checked and stored on the
 * request loop) and once with the record writer thread and its ingest workers
 * (BENCH_INGEST_WORKERS, default as serve's), side by side with ratios to idle; the server's CPU
 * per record while it only takes writes (over BENCH_CPU_RECORDS answered records, default 300: its
 * request loop's, all its threads' and each busy thread's, Linux /proc), and where the CPU went while
 * it took both (each server thread, the writer process, autocannon's), and the refused writes by
 * status. The store: test-support/api/score-bench-store.ts (BENCH_DATA_DIR keeps it between runs).
 * BENCH_PROF=<dir>: the server writes a CPU profile of each of its threads there. BENCH_INLINE=0: the
 * record writer only. BENCH_ROUNDS=0: the writes-alone CPU only (old and new code back to back).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_INGEST_WORKERS } from "../../src/records/ingest-pool";
import type { Submission } from "../../src/records/ingest";
import { openStore } from "../../src/store/open";
import { findSeason, insertSeason } from "../../src/store/queries/seasons";
import { printProfile } from "../profile";
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
/** Idle and loaded measures alternate this many times (BENCH_ROUNDS), BENCH_SECONDS each. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Records the writes-alone CPU is measured over (a count, not a time: a loaded host answers late). */
const CPU_RECORDS = Number(process.env.BENCH_CPU_RECORDS ?? 300);
const BIN = join(__dirname, "..", "..", "bin", "augur.cjs");
const POSTER = join(__dirname, "post-at-rate.ts");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unixNow = () => Math.floor(Date.now() / 1000);

/** utime + stime of a /proc stat file (Linux, at USER_HZ 100), ms. */
function statCpuMs(path: string): number {
  const stat = readFileSync(path, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The machine's CPU time so far (jiffies, every core), and how much of it the host stole (Linux /proc/stat). */
function machineTime(): { total: number; steal: number } {
  const fields = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7]! };
}

/** The share of the machine's time the host stole between two `machineTime`s, %. */
function stolenPercent(
  before: ReturnType<typeof machineTime>,
  after: ReturnType<typeof machineTime>,
): number {
  const total = after.total - before.total;
  return total > 0 ? ((after.steal - before.steal) / total) * 100 : 0;
}

/** CPU time of one thread of a process (its main thread by default), ms. */
const taskCpuMs = (pid: number, tid = pid) => statCpuMs(`/proc/${pid}/task/${tid}/stat`);
/** CPU time of a whole process, every thread, ms. */
const processCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

/**
 * CPU time of each thread of a process, ms, by "name tid" (Linux): the main thread is "loop"; the
 * record writer and its ingest workers name themselves (`nameThisThread`); V8's and libuv's are "node".
 */
function threadsCpuMs(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const name = Number(tid) === pid ? "loop" : comm;
      threads.set(`${name} ${tid}`, taskCpuMs(pid, Number(tid)));
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** Each thread's CPU per record between two `threadsCpuMs`, ≥ 0.01 ms, as "name ms". */
function threadsPerRecord(before: Map<string, number>, after: Map<string, number>, records: number): string {
  return [...after]
    .map(([key, ms]) => [key, (ms - (before.get(key) ?? 0)) / records] as const)
    .filter(([, ms]) => ms >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([key, ms]) => `${key.split(" ")[0]} ${ms.toFixed(2)}`)
    .join(", ");
}

/** The threads that spent ≥ 1 % of `seconds` between two `threadsCpuMs`, as "name: ms". */
function busyThreads(before: Map<string, number>, after: Map<string, number>, seconds: number): string {
  return [...after]
    .map(([key, ms]) => [key, ms - (before.get(key) ?? 0)] as const)
    .filter(([, ms]) => ms >= seconds * 10)
    .sort((a, b) => b[1] - a[1])
    .map(([key, ms]) => `${key.split(" ")[0]} ${(ms / seconds / 10).toFixed(0)} %`)
    .join(", ");
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
    // Dated from a minute before signing began: signing thousands takes a while on a loaded host,
    // and a record dated more than the grace (600 s) before it arrives is refused as stale.
    const moment = t - 60 + Math.floor(j / WRITERS);
    bodies.push(JSON.stringify(await sign("Snapshot", snapshot(w.name, moment, "1000000000", "w"), w.agent)));
  }
  return bodies;
}

/**
 * Posts `bodies` at RATE a second from a child process (post-at-rate.ts) until stopped;
 * `answered()` counts so far, the call waits for every answer.
 */
function startWriter(url: string, bodies: string[], dir: string) {
  const file = join(dir, `bodies-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(bodies));
  const child = spawn(process.execPath, ["--import", "tsx", POSTER, url, String(RATE), file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let answered = 0;
  let out = "";
  const done = new Promise<{ rate: number; stored: number; refused: number; why: Record<string, number> }>(
    (resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const lines = out.split("\n");
        out = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith("answered ")) answered = Number(line.slice(9));
          else if (line.startsWith("done ")) resolve(JSON.parse(line.slice(5)));
        }
      });
      child.once("exit", (code) => reject(new Error(`the writer exited ${code} before its summary`)));
    },
  );
  const stop = async () => {
    child.kill("SIGTERM");
    try {
      return await done;
    } finally {
      rmSync(file, { force: true });
    }
  };
  return Object.assign(stop, {
    answered: () => answered,
    pid: () => child.pid!,
    /** Pauses the posting, or resumes it. */
    toggle: () => child.kill("SIGUSR1"),
  });
}

async function serve(dataDir: string, workers: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
      BIN,
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--ingest-workers",
      String(workers),
    ],
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

/**
 * Rounds of autocannon alternately without and with the writer posting: idle and loaded figures
 * taken minutes apart would differ by whatever else the host did meanwhile (on a shared VM, the
 * idle figure alone varied 2×), so each loaded round is compared with the idle round just before.
 */
async function rounds(url: string, writer: ReturnType<typeof startWriter>) {
  const idle: AutocannonResult[] = [];
  const loaded: AutocannonResult[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    writer.toggle(); // pause: the posts in flight are answered meanwhile
    await sleep(300);
    idle.push(await measure(url, SCORE_PATHS));
    writer.toggle();
    await sleep(300);
    loaded.push(await measure(url, SCORE_PATHS));
    ratios.push(loaded[round]!.requests.average / idle[round]!.requests.average);
  }
  const p99s = loaded.map((r) => r.latency.p99);
  return { idle: combined(idle), loaded: combined(loaded), ratios, p99s };
}

/** The median of some numbers (the mean of the middle two when even). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Rounds taken as one: throughput averaged, the worst p99 (and p50), errors summed. */
function combined(results: AutocannonResult[]): AutocannonResult {
  return {
    requests: { average: results.reduce((sum, r) => sum + r.requests.average, 0) / results.length },
    latency: {
      p50: Math.max(...results.map((r) => r.latency.p50)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
    },
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

async function run(dataDir: string, workers: number) {
  const { child, url } = await serve(dataDir, workers);
  try {
    await measure(url, SCORE_PATHS, WARM_SECONDS);
    const bodies = await writerRecords(
      url,
      `${workers}-${Date.now()}`,
      RATE * (ROUNDS * SECONDS + WARM_SECONDS + 3) + CPU_RECORDS,
    );
    const writer = startWriter(url, bodies, dataDir);
    await sleep(WARM_SECONDS * 1000);
    // Writes alone first: the server's request loop CPU per record, whatever else the machine runs.
    const cpu0 = taskCpuMs(child.pid!);
    const all0 = processCpuMs(child.pid!);
    const threads0 = threadsCpuMs(child.pid!);
    const answered0 = writer.answered();
    for (let waited = 0; writer.answered() - answered0 < CPU_RECORDS && waited < 60_000; waited += 50)
      await sleep(50);
    const records = writer.answered() - answered0;
    const cpuPerRecord = (taskCpuMs(child.pid!) - cpu0) / records;
    const allCpuPerRecord = (processCpuMs(child.pid!) - all0) / records;
    const perThread = threadsPerRecord(threads0, threadsCpuMs(child.pid!), records);
    const server0 = threadsCpuMs(child.pid!);
    const poster0 = taskCpuMs(writer.pid());
    const bench0 = process.cpuUsage();
    const machine0 = machineTime();
    const { idle, loaded, ratios, p99s } = await rounds(url, writer);
    // A VM's neighbours take cores away: the idle figure alone varied 2× run to run on the shared host.
    const stolen = stolenPercent(machine0, machineTime());
    // Over all the rounds, half of them with writes: shares of a core while loaded are about twice these.
    const seconds = 2 * ROUNDS * SECONDS;
    const cpu = {
      server: busyThreads(server0, threadsCpuMs(child.pid!), seconds),
      poster: (taskCpuMs(writer.pid()) - poster0) / seconds / 10,
      bench: (() => {
        const used = process.cpuUsage(bench0);
        return (used.user + used.system) / 1000 / seconds / 10;
      })(),
    };
    const writes = await writer();
    return { idle, loaded, ratios, p99s, cpuPerRecord, allCpuPerRecord, perThread, cpu, stolen, writes };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    if (process.env.BENCH_PROF) printServerProfiles(process.env.BENCH_PROF, child.pid!, workers);
  }
}

/** The top self-time functions of each thread's profile the server wrote (BENCH_PROF). */
function printServerProfiles(dir: string, pid: number, workers: number): void {
  for (const file of readdirSync(dir)
    .filter((name) => name.includes(`.${pid}.`))
    .sort()) {
    console.log(`profile of augur serve (${workers} ingest workers), ${file}:`);
    printProfile(join(dir, file), 12);
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
    const inline = process.env.BENCH_INLINE === "0" ? undefined : await run(dataDir, 0);
    const pooled = await run(dataDir, WORKERS);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s idle then ${SECONDS} s with writes ` +
        `(throughput averaged, worst p99; each round's ratio to the idle round before it), loopback, augur serve in a child process; ` +
        `load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
    );
    const lines = (name: string, r: Awaited<ReturnType<typeof run>>) => {
      const vs = (a: AutocannonResult) => (a.requests.average / r.idle.requests.average).toFixed(2);
      if (ROUNDS === 0) {
        // BENCH_ROUNDS=0: the writes-alone CPU only.
        console.log(
          `${name}: request loop ${r.cpuPerRecord.toFixed(2)} ms CPU/record, all threads ${r.allCpuPerRecord.toFixed(2)}; ` +
            `by thread: ${r.perThread}; ${r.writes.stored} stored, ${r.writes.refused} refused ${JSON.stringify(r.writes.why)}`,
        );
        return;
      }
      console.log(row(`${name}, idle`, r.idle));
      console.log(
        `${row(`${name}, ${RATE} writes/s`, r.loaded)}   ${vs(r.loaded)}× idle; ` +
          `request loop ${r.cpuPerRecord.toFixed(2)} ms CPU/record, all threads ${r.allCpuPerRecord.toFixed(2)}; writer ${r.writes.rate.toFixed(0)}/s, ` +
          `${r.writes.stored} stored, ${r.writes.refused} refused` +
          (r.writes.refused > 0 ? ` (by status: ${JSON.stringify(r.writes.why)})` : ""),
      );
      const ratios = r.ratios.map((x) => x.toFixed(2)).join(", ");
      console.log(
        `  rounds: ${ratios}× idle (median ${median(r.ratios).toFixed(2)}×, spread ` +
          `${Math.min(...r.ratios).toFixed(2)}–${Math.max(...r.ratios).toFixed(2)}); p99 ${r.p99s.join(", ")} ms ` +
          `(median ${median(r.p99s)})`,
      );
      console.log(`  writes alone, CPU per record by thread (ms): ${r.perThread}`);
      console.log(
        `  CPU over the rounds (% of a core): server threads ${r.cpu.server}; ` +
          `writer process ${r.cpu.poster.toFixed(0)} %; autocannon process ${r.cpu.bench.toFixed(0)} %; ` +
          `the host stole ${r.stolen.toFixed(1)} % of the machine's time`,
      );
    };
    if (inline) lines("inline", inline);
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
