// Speed and memory of the Merkle log: `npx tsx packages/scorer/src/merkle/merkle.bench.ts`.
// Prints ratios against baselines measured in the same run, so figures from loaded or slower
// machines stay comparable; it asserts nothing about time. Targets (issue 5): root of 1M seals
// ≤ 1.5× a bare node:crypto (createHash) pass doing the same sha256 work; ≥ 20× faster than
// @openzeppelin/merkle-tree's SimpleMerkleTree on 100k leaves; peak memory for 1M seals
// < 300 MB; one proof from a built log < 50 µs.
import { spawnSync } from "node:child_process";
import { createHash, hash, randomBytes } from "node:crypto";
import { SimpleMerkleTree } from "@openzeppelin/merkle-tree";
import type { Hex32 } from "../hex";
import { MerkleLog } from "./log";
import { merkleRoot } from "./root";

const MILLION = 1_000_000;

/**
 * n random seals as flat strings, like those parsed from a file or a JSON body. (A template
 * literal would make V8 cons strings, which double in size when first read: that would measure
 * the bench's own input, not the log.)
 */
function randomSeals(n: number): Hex32[] {
  const line = Buffer.alloc(66);
  line.write("0x", 0, "latin1");
  let bytes = Buffer.alloc(0);
  return Array.from({ length: n }, (_, i) => {
    if (i % 4096 === 0) bytes = randomBytes(32 * 4096);
    const at = 32 * (i % 4096);
    line.write(bytes.toString("hex", at, at + 32), 2, "latin1");
    return line.toString("latin1") as Hex32;
  });
}

/**
 * The same sha256 work as the root of n leaves, with nothing else: n 33-byte and n − 1 65-byte
 * inputs (one and two compressions), through node:crypto's hashing API (`createHash`) — the
 * target's baseline.
 */
function bareSha256Pass(n: number): void {
  const leaf = Buffer.alloc(33, 7);
  const node = Buffer.alloc(65, 9);
  for (let i = 0; i < n; i++) createHash("sha256").update(leaf).digest();
  for (let i = 1; i < n; i++) createHash("sha256").update(node).digest();
}

/**
 * The same inputs through the cheapest call node:crypto has for small inputs (one-shot `hash` to
 * a binary string, what merkleRoot itself uses): the floor for any JavaScript implementation,
 * without the hex decoding and buffer writes a real root needs.
 */
function oneShotSha256Pass(n: number): void {
  const leaf = Buffer.alloc(33, 7);
  const node = Buffer.alloc(65, 9);
  for (let i = 0; i < n; i++) hash("sha256", leaf, "binary");
  for (let i = 1; i < n; i++) hash("sha256", node, "binary");
}

function ms(fn: () => unknown): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Best of `rounds`, alternating the contenders so machine load hits both alike. */
function race(rounds: number, contenders: Record<string, () => unknown>): Record<string, number> {
  const best: Record<string, number> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(contenders))
      best[name] = Math.min(best[name] ?? Infinity, ms(fn));
  }
  return best;
}

/** Peak memory of one scenario, each in a fresh process so earlier garbage does not count. */
function memoryChild(scenario: string): void {
  const seals = scenario === "runtime" ? [] : randomSeals(MILLION);
  if (scenario === "root") merkleRoot(seals);
  if (scenario === "log") new MerkleLog(seals).inclusionProof(12_345);
  const { heapUsed } = process.memoryUsage();
  // maxRSS is the process's peak resident set in KiB: runtime, seals and the work together.
  console.log(
    JSON.stringify({ peakRssMb: process.resourceUsage().maxRSS / 1024, heapUsedMb: heapUsed / 2 ** 20 }),
  );
}

function measureMemory(scenario: string): { peakRssMb: number; heapUsedMb: number } {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, `--memory=${scenario}`], {
    encoding: "utf8",
  });
  return JSON.parse(child.stdout.trim().split("\n").pop()!) as { peakRssMb: number; heapUsedMb: number };
}

function main(): void {
  const fmt = (x: number, digits = 0) => x.toFixed(digits);
  console.log(`merkle bench — ${new Date().toISOString()}, Node ${process.version}, ${process.arch}`);

  const seals = randomSeals(MILLION);
  const root = race(3, {
    bare: () => bareSha256Pass(MILLION),
    oneShot: () => oneShotSha256Pass(MILLION),
    merkleRoot: () => merkleRoot(seals),
  });
  console.log(
    `root of 1,000,000 seals: merkleRoot ${fmt(root.merkleRoot!)} ms, bare createHash pass ${fmt(root.bare!)} ms ` +
      `→ ${fmt(root.merkleRoot! / root.bare!, 2)}× (target ≤ 1.5×); one-shot hash floor ${fmt(root.oneShot!)} ms ` +
      `→ ${fmt(root.merkleRoot! / root.oneShot!, 2)}×`,
  );

  const hundredK = seals.slice(0, 100_000);
  const ours = race(3, { ours: () => merkleRoot(hundredK) }).ours!;
  const oz = race(1, { oz: () => SimpleMerkleTree.of(hundredK).root }).oz!; // ~15 s: one round
  console.log(
    `100,000 leaves: SimpleMerkleTree ${fmt(oz)} ms, merkleRoot ${fmt(ours)} ms ` +
      `→ ${fmt(oz / ours, 1)}× faster (target ≥ 20×)`,
  );

  let log = new MerkleLog();
  const build = ms(() => (log = new MerkleLog(seals)));
  console.log(`MerkleLog of 1,000,000 seals (all levels kept): ${fmt(build)} ms to append`);
  // Proofs against the latest head (what the API serves) and against 1,000 different past sizes.
  const picks = Array.from({ length: 10_000 }, (_, i) => (i * 7_919_111) % MILLION);
  log.root(MILLION);
  const latest = ms(() => picks.forEach((i) => log.inclusionProof(i, MILLION)));
  const past = ms(() =>
    picks.forEach((i) => {
      const size = MILLION - 1 - (i % 1000);
      log.inclusionProof(i % size, size);
    }),
  );
  const consistency = ms(() => picks.forEach((i) => log.consistencyProof(1 + i, MILLION)));
  const us = (total: number) => fmt((1000 * total) / picks.length, 1);
  console.log(
    `inclusion proof from the built log: ${us(latest)} µs against the latest head, ${us(past)} µs against ` +
      `uncached past sizes; consistency proof to the latest head ${us(consistency)} µs (target < 50 µs)`,
  );

  const seals0 = measureMemory("seals");
  const root0 = measureMemory("root");
  const log0 = measureMemory("log");
  console.log(
    `peak RSS, fresh process each: 1,000,000 seal strings alone ${fmt(seals0.peakRssMb)} MB; ` +
      `+ merkleRoot ${fmt(root0.peakRssMb)} MB; + MerkleLog (all levels) ${fmt(log0.peakRssMb)} MB, ` +
      `heap in use ${fmt(log0.heapUsedMb)} MB (target < 300 MB)`,
  );
}

const memoryFlag = process.argv.find((arg) => arg.startsWith("--memory="));
if (memoryFlag) memoryChild(memoryFlag.slice("--memory=".length));
else main();
