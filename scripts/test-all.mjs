#!/usr/bin/env node
// `npm test`: every quality gate and every test runner of the monorepo, then one closing line
// `N passed, N failed` summing all runners (the line CI reads).
//
// On the 2-core CI each runner is mostly one busy process, so after `compile` two lanes run side
// by side (docs/benchmarks.md has the suite times before and after):
//   - the chain lane: `hardhat test`, then the fork rehearsal. Every Hardhat compile (in `hardhat
//     test`, `hardhat run` and the start tests' `npm start`) rewrites cache/solidity-files-cache.json
//     in place, and a compile that reads it half-written drops it and rebuilds every artifact: the
//     steps that compile must never overlap, so they share this lane.
//   - the other lane: the remaining gates, then the packages' runners (none of them compiles).
// The chain lane prints as it runs; the other lane's output is held per step and printed whole
// between the chain lane's steps (live once the chain lane is done), so no two steps' lines mix.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const deep = process.argv.includes("--deep");
const summaryDir = mkdtempSync(join(tmpdir(), "augur-test-"));
const summaryFile = join(summaryDir, "summary.jsonl");

/** @typedef {{ name: string, cmd: string, args: string[], suite?: string }} Step */

/** @type {Step} Before both lanes: every runner reads the artifacts and the generated types. */
const compile = { name: "compile", cmd: "npx", args: ["hardhat", "compile", "--quiet"] };
/** @type {Step[]} */
const chainLane = [
  { name: "contracts", cmd: "npx", args: ["hardhat", "test"], suite: "contracts" },
  // The replica suite in fork mode against a local node posing as Robinhood Chain (docs/replica.md).
  { name: "fork rehearsal", cmd: "npx", args: ["tsx", "scripts/fork-rehearsal.ts"], suite: "fork rehearsal" },
];
/** @type {Step[]} */
const otherLane = [
  { name: "typecheck", cmd: "npx", args: ["tsc", "-p", ".", "--noEmit"] },
  { name: "solhint", cmd: "npm", args: ["run", "--silent", "lint:sol"] },
  { name: "eslint", cmd: "npm", args: ["run", "--silent", "lint:ts"] },
  { name: "prettier", cmd: "npm", args: ["run", "--silent", "format:check"] },
  { name: "conflict markers", cmd: "node", args: ["scripts/ci/no-conflict-markers.mjs"] },
  { name: "packages", cmd: "npm", args: ["test", "--workspaces", "--if-present"], suite: "packages" },
];
const steps = [compile, ...chainLane, ...otherLane];

const started = Date.now();
const failedSteps = [];
/** Finished blocks of the other lane, printed when no chain-lane step is writing. */
const heldBlocks = [];
let chainLaneRunning = false;
/** The other lane's running step, whose output is held while the chain lane prints. */
let heldStep = null;

/** Runs one step; `hold` collects its output instead of letting it reach the terminal. */
function run(step, hold) {
  const t0 = Date.now();
  const header = `\n=== ${step.name}${deep ? " (deep)" : ""}\n`;
  const held = { chunks: [header], live: !hold };
  if (held.live) process.stdout.write(header);
  else heldStep = held;
  const child = spawn(step.cmd, step.args, {
    stdio: held.live ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, AUGUR_TEST_SUMMARY: summaryFile, AUGUR_TEST_SUITE: step.suite ?? step.name },
  });
  const onChunk = (chunk) => (held.live ? process.stdout.write(chunk) : held.chunks.push(chunk));
  child.stdout?.on("data", onChunk);
  child.stderr?.on("data", onChunk);
  return new Promise((done) => {
    let finished = false;
    child.once("error", (error) => finish(null, error.message));
    child.once("close", (code, signal) => finish(code, signal));
    function finish(code, signal) {
      if (finished) return;
      finished = true;
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      let line;
      if (code !== 0) {
        failedSteps.push(step.name);
        line = `=== ${step.name}: FAILED (exit ${code ?? signal}) in ${seconds}s\n`;
      } else {
        line = `=== ${step.name}: ok in ${seconds}s\n`;
      }
      if (held.live) process.stdout.write(line);
      else {
        held.chunks.push(line);
        heldBlocks.push(held.chunks);
      }
      if (heldStep === held) heldStep = null;
      done();
    }
  });
}

function flushHeld() {
  for (const chunks of heldBlocks.splice(0)) for (const chunk of chunks) process.stdout.write(chunk);
}

await run(compile, false);
const chain = (async () => {
  chainLaneRunning = true;
  for (const step of chainLane) {
    await run(step, false);
    flushHeld();
  }
  chainLaneRunning = false;
  // From here the other lane prints live: its running step's output so far, then as it comes.
  if (heldStep) {
    for (const chunk of heldStep.chunks.splice(0)) process.stdout.write(chunk);
    heldStep.live = true;
  }
})();
const other = (async () => {
  for (const step of otherLane) {
    await run(step, chainLaneRunning);
    if (!chainLaneRunning) flushHeld();
  }
})();
await Promise.all([chain, other]);
flushHeld();

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(summaryFile)) {
  for (const line of readFileSync(summaryFile, "utf8").split("\n").filter(Boolean)) {
    const counts = JSON.parse(line);
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
}
rmSync(summaryDir, { recursive: true, force: true });
if (process.env.AUGUR_TEST_TIMES) printSlowest(process.env.AUGUR_TEST_TIMES);

// A gate that failed without running tests (compile, lint) still fails the run.
failed += failedSteps.filter((name) => !steps.find((s) => s.name === name)?.suite).length;
console.log(
  `\nsuite time ${((Date.now() - started) / 1000).toFixed(0)}s; failed steps: ${failedSteps.join(", ") || "none"}`,
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failedSteps.length === 0 && failed === 0 ? 0 : 1);

/**
 * AUGUR_TEST_TIMES=<file>: the reporter appended a line per test file (wall and CPU seconds);
 * the 25 costliest files by CPU, the steadier figure on a shared machine, with their share.
 */
function printSlowest(file) {
  if (!existsSync(file)) return;
  const perFile = new Map();
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const { step, file: path, seconds, cpu } = JSON.parse(line);
    const name = `${step ?? "?"}: ${relative(process.cwd(), path)}`;
    const row = perFile.get(name) ?? { seconds: 0, cpu: 0 };
    perFile.set(name, { seconds: row.seconds + seconds, cpu: row.cpu + cpu });
  }
  const rows = [...perFile].sort((a, b) => b[1].cpu - a[1].cpu);
  const total = rows.reduce((sum, [, r]) => sum + r.cpu, 0);
  console.log(
    `\nslowest test files by CPU (of ${total.toFixed(0)} CPU s in ${rows.length} files; wall s beside):`,
  );
  for (const [name, r] of rows.slice(0, 25)) {
    const share = ((100 * r.cpu) / total).toFixed(1).padStart(5);
    console.log(`${r.cpu.toFixed(1).padStart(7)} ${share} % ${r.seconds.toFixed(1).padStart(7)}  ${name}`);
  }
}
