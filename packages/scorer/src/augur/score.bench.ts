// `npx tsx --expose-gc packages/scorer/src/augur/score.bench.ts` (or `npm run bench score`):
// scores a season of 10,000 agents × 720 hourly snapshots (+ 50 calls, 100 decisions and 20
// trades each) twice, and prints CPU and wall time and peak memory beside two bare node:crypto
// passes that sha256 the same snapshot records (the floor for sealing them; see floorCreateHash):
//   A. streamed: SeasonScorer fed one agent's records at a time (how the engine can feed it);
//   B. whole: the season as one in-memory input, validated and scored (what `augur score` does);
//   C. streamed with each snapshot row carrying its seal, as the engine's cycle feeds it (the
//      engine sealed every record at ingestion, so the scorer folds stored seals into the root).
// CPU time (process.cpuUsage) is the fair figure on a shared machine; the load average is printed
// at the start and the end. "seals" is a digest of every row's seal: an optimisation must leave
// it unchanged. BENCH_AGENTS / BENCH_SNAPSHOTS shrink it for a quick run. No timed assertions.
import { createHash, hash } from "node:crypto";
import { loadavg } from "node:os";
import { validateSeasonInput } from "./input";
import { scoreSeason, SeasonScorer, type UnrankedRow } from "./season";
import { sealSnapshot } from "./snapshot-seal";
import { benchSeason } from "./bench-season";
import type { CallInput, DecisionInput, SeasonInput, SnapshotInput, TradeInput } from "./types";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 720);
const { agents, header, agentRecords } = benchSeason(AGENTS, SNAPSHOTS);

/**
 * The floor: one bare sha256 of each snapshot record's JSON, nothing else, two ways. `createHash`
 * with a Buffer digest is the textbook call; one-shot `crypto.hash` with a "binary" (latin1) string result is
 * the fastest node:crypto call found (no Buffer per digest), and is what the scorer uses.
 */
function floorCreateHash(rows: readonly SnapshotInput[]): number {
  let xor = 0;
  for (const row of rows) xor ^= createHash("sha256").update(JSON.stringify(row)).digest()[0]!;
  return xor;
}
function floorOneShot(rows: readonly SnapshotInput[]): number {
  let xor = 0;
  for (const row of rows) xor ^= hash("sha256", JSON.stringify(row), "binary").charCodeAt(0);
  return xor;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Wall and CPU (user + system) time of `fn`: on a shared machine the CPU time is the fair figure. */
class Timer {
  wallMs = 0;
  cpuMs = 0;
  run<T>(fn: () => T): T {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const result = fn();
    const used = process.cpuUsage(cpu);
    this.cpuMs += (used.user + used.system) / 1000;
    this.wallMs += performance.now() - wall;
    return result;
  }
  toString(): string {
    return `cpu ${s(this.cpuMs)} (wall ${s(this.wallMs)})`;
  }
}
const peakRss = () => process.resourceUsage().maxRSS * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const ratio = (t: Timer, f: Timer) => `${(t.cpuMs / f.cpuMs).toFixed(2)}×`;
/** sha256 over every row's seal, in output order: any change to any manifest changes it. */
const sealsDigest = (rows: readonly { seal: string }[]) =>
  createHash("sha256")
    .update(rows.map((r) => r.seal).join(","))
    .digest("hex")
    .slice(0, 16);

console.log(
  `season: ${AGENTS.toLocaleString("en")} agents × ${SNAPSHOTS} snapshots = ${(AGENTS * SNAPSHOTS).toLocaleString("en")} ` +
    `snapshots, ${(AGENTS * 100).toLocaleString("en")} decisions, ${(AGENTS * 50).toLocaleString("en")} calls, ` +
    `${(AGENTS * 20).toLocaleString("en")} trades; node ${process.version}; load ${load()}`,
);

// A. Streamed, one agent at a time; both floors are timed on the same records, interleaved, so
// machine load falls on all three alike. Heap is sampled between agents (outside the timers).
const floorClassic = new Timer();
const floorFast = new Timer();
const stream = new Timer();
let checksum = 0;
let streamHeap = 0;
const scorer = new SeasonScorer(header);
const streamed: UnrankedRow[] = [];
const engine = new Timer();
const engineScorer = new SeasonScorer(header);
const fedSealed: UnrankedRow[] = [];
for (let a = 0; a < AGENTS; a++) {
  const records = agentRecords(a);
  checksum ^= floorClassic.run(() => floorCreateHash(records.snapshots));
  checksum ^= floorFast.run(() => floorOneShot(records.snapshots)) << 8;
  streamed.push(stream.run(() => scorer.scoreAgent(agents[a]!.id, records)));
  // C: the same rows carrying their seals, sealed outside the timers (the engine has them stored).
  const sealed = {
    ...records,
    snapshots: records.snapshots.map((row) => ({ ...row, seal: sealSnapshot(row) })),
  };
  fedSealed.push(engine.run(() => engineScorer.scoreAgent(agents[a]!.id, sealed)));
  if (a % 100 === 0) streamHeap = Math.max(streamHeap, process.memoryUsage().heapUsed);
}
const streamedResult = stream.run(() => scorer.result(streamed));
const engineResult = engine.run(() => engineScorer.result(fedSealed));
const streamPeak = peakRss();
console.log(`floor 1, createHash().update(JSON).digest(): ${floorClassic} (checksum ${checksum})`);
console.log(`floor 2, hash("sha256", JSON, "binary"):     ${floorFast}`);
console.log(
  `A. streamed scoring: ${stream} = ${ratio(stream, floorClassic)} floor 1, ${ratio(stream, floorFast)} floor 2 (cpu); ` +
    `peak RSS ${mb(streamPeak)}, heap ${mb(streamHeap)}; ` +
    `${streamedResult.rows.filter((r) => r.score !== null).length} rows scored; seals ${sealsDigest(streamedResult.rows)}`,
);
console.log(
  `C. streamed, rows carrying their stored seals (how the engine's cycle feeds it): ${engine} = ` +
    `${ratio(engine, floorClassic)} floor 1, ${ratio(engine, floorFast)} floor 2 (cpu); ` +
    `same seals as A: ${engineResult.rows.every((row, i) => row.seal === streamedResult.rows[i]!.seal)}`,
);
fedSealed.length = 0;

// B. The whole season in memory, as `augur score --input` holds it.
streamed.length = 0;
gc?.();
// Appended agent by agent, so building it never holds the records twice (the peak RSS below is
// the input plus what scoring adds, not an artefact of building the input).
const snapshots: SnapshotInput[] = [];
const decisions: DecisionInput[] = [];
const trades: TradeInput[] = [];
const calls: CallInput[] = [];
for (let a = 0; a < AGENTS; a++) {
  const records = agentRecords(a);
  for (const row of records.snapshots) snapshots.push(row);
  for (const row of records.decisions) decisions.push(row);
  for (const row of records.trades) trades.push(row);
  for (const row of records.calls) calls.push(row);
}
const season: SeasonInput = { ...header, snapshots, decisions, trades, calls };
gc?.();
const inputHeap = process.memoryUsage().heapUsed;
// maxRSS never falls, so what it reads here is the most B can have needed before scoring began.
const peakBeforeValidate = peakRss();
const validate = new Timer();
validate.run(() => validateSeasonInput(season));
const score = new Timer();
const whole = score.run(() => scoreSeason(season));
const wholeHeap = process.memoryUsage().heapUsed;
const same = whole.rows.every((row, i) => row.seal === streamedResult.rows[i]!.seal);
console.log(
  `B. whole season: input heap ${mb(inputHeap)} (peak RSS so far ${mb(peakBeforeValidate)}); validate ${validate}; score ${score} = ` +
    `${ratio(score, floorClassic)} floor 1, ${ratio(score, floorFast)} floor 2 (cpu); validate + score cpu ` +
    `${s(validate.cpuMs + score.cpuMs)}; peak RSS ${mb(peakRss())}, heap after ${mb(wholeHeap)}; ` +
    `same seals as A: ${same}`,
);
console.log(`targets: < 5 s and < 1 GB on one core; load at the end ${load()}`);
