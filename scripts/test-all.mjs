#!/usr/bin/env node
// `npm test`: every quality gate and every test runner of the monorepo, in order, then one
// closing line `N passed, N failed` summing all runners (the line CI reads).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const deep = process.argv.includes("--deep");
const summaryDir = mkdtempSync(join(tmpdir(), "augur-test-"));
const summaryFile = join(summaryDir, "summary.jsonl");

/** @type {Array<{ name: string, cmd: string, args: string[], suite?: string }>} */
const steps = [
  { name: "compile", cmd: "npx", args: ["hardhat", "compile", "--quiet"] },
  { name: "typecheck", cmd: "npx", args: ["tsc", "-p", ".", "--noEmit"] },
  { name: "solhint", cmd: "npm", args: ["run", "--silent", "lint:sol"] },
  { name: "eslint", cmd: "npm", args: ["run", "--silent", "lint:ts"] },
  { name: "prettier", cmd: "npm", args: ["run", "--silent", "format:check"] },
  { name: "conflict markers", cmd: "node", args: ["scripts/ci/no-conflict-markers.mjs"] },
  { name: "contracts", cmd: "npx", args: ["hardhat", "test"], suite: "contracts" },
  // The replica suite in fork mode against a local node posing as Robinhood Chain (docs/replica.md).
  { name: "fork rehearsal", cmd: "npx", args: ["tsx", "scripts/fork-rehearsal.ts"], suite: "fork rehearsal" },
  { name: "packages", cmd: "npm", args: ["test", "--workspaces", "--if-present"], suite: "packages" },
];

const started = Date.now();
const failedSteps = [];
for (const step of steps) {
  const t0 = Date.now();
  console.log(`\n=== ${step.name}${deep ? " (deep)" : ""}`);
  const result = spawnSync(step.cmd, step.args, {
    stdio: "inherit",
    env: { ...process.env, AUGUR_TEST_SUMMARY: summaryFile, AUGUR_TEST_SUITE: step.suite ?? step.name },
  });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (result.status !== 0) {
    failedSteps.push(step.name);
    console.log(`=== ${step.name}: FAILED (exit ${result.status ?? result.signal}) in ${seconds}s`);
  } else {
    console.log(`=== ${step.name}: ok in ${seconds}s`);
  }
}

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
