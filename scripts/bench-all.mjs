#!/usr/bin/env node
// `npm run bench`: every `*.bench.ts` beside its hot path, one after another (a benchmark wants
// the machine to itself), each printing its figures and ratios against a same-run baseline.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = process.cwd();
const skip = new Set(["node_modules", ".git", "artifacts", "cache", "typechain-types", "coverage", ".data"]);
const only = process.argv.slice(2);

function findBenches(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (skip.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findBenches(path);
    return name.endsWith(".bench.ts") ? [path] : [];
  });
}

const benches = findBenches(root)
  .map((path) => relative(root, path))
  .filter((path) => only.length === 0 || only.some((word) => path.includes(word)))
  .sort();
let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${bench}`);
  const result = spawnSync("npx", ["tsx", "--expose-gc", bench], { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
console.log(`\n${benches.length} benchmarks run, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
