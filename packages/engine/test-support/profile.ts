/**
 * V8 CPU profiles for the benches: `profiled` writes one of a piece of work (with the bench's
 * marks, e.g. a cycle's progress lines, stored beside the samples), `topSelfTime` ranks the
 * functions by self time, skipping start-up (samples under node's module loader, which a
 * `--cpu-prof` profile of a whole process begins with). As a command, prints the top of a
 * profile file, whole and between each pair of its marks:
 *   npx tsx packages/engine/test-support/profile.ts <file.cpuprofile> [top (default 15)]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { Profiler } from "node:inspector";

/** A named point in time (µs, the profiler's clock: `process.hrtime`), written into the profile. */
export interface ProfileMark {
  readonly line: string;
  readonly us: number;
}
export type MarkedProfile = Profiler.Profile & { marks?: ProfileMark[] };

const marks: ProfileMark[] = [];

/** Records a mark for the profile being taken (cheap when none is). */
export function markProfile(line: string): void {
  marks.push({ line, us: Number(process.hrtime.bigint() / 1000n) });
}

/** `fn` under the V8 CPU profiler, its profile (and the marks made meanwhile) written to `file`; no profiling when `file` is undefined. */
export async function profiled<T>(file: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (file === undefined) return fn();
  const session = new Session();
  session.connect();
  marks.length = 0;
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(file, JSON.stringify({ ...profile, marks }));
    session.disconnect();
  }
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  /** Of the window's samples, start-up and idle left out. */
  readonly share: number;
}

const STARTUP = /^node:internal\/(modules|main)\//;

/**
 * The `top` functions by self time (name and source line) among the samples between `fromUs`
 * and `toUs` (profiler clock; default the whole profile), leaving out start-up and `(idle)`.
 */
export function topSelfTime(profile: Profiler.Profile, top: number, fromUs = -Infinity, toUs = Infinity) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const startup = new Map<number, boolean>();
  const underLoader = (id: number): boolean => {
    const known = startup.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const result = STARTUP.test(byId.get(id)!.callFrame.url) || (up !== undefined && underLoader(up));
    startup.set(id, result);
    return result;
  };
  const self = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] ?? 0;
    // A sample lasts until the next one.
    const us = deltas[i + 1] ?? 0;
    const node = byId.get(samples[i]!)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (at < fromUs || at >= toUs || functionName === "(idle)" || underLoader(node.id)) continue;
    // The file's last two path parts; the line only for JavaScript (tsx's output of a .ts file is one line).
    const where = url.split("/").slice(-2).join("/") + (url.endsWith(".js") ? `:${lineNumber + 1}` : "");
    const name = `${functionName || "(anonymous)"} ${where}`.trim();
    self.set(name, (self.get(name) ?? 0) + us);
    total += us;
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]): SelfTime => ({ name, ms: us / 1000, share: total === 0 ? 0 : us / total }));
}

/** Printable lines of `topSelfTime`, indented. */
export function selfTimeLines(rows: readonly SelfTime[], indent = "    "): string[] {
  return rows.map(
    (r) =>
      `${indent}${(r.share * 100).toFixed(1).padStart(5)} % ${r.ms.toFixed(0).padStart(7)} ms  ${r.name}`,
  );
}

/** The top of a profile file: whole, then each window between two marks (named by the later mark). */
export function printProfile(file: string, top: number, print: (line: string) => void = console.log): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as MarkedProfile;
  print(`${file}: top ${top} by self time (start-up and idle left out)`);
  for (const line of selfTimeLines(topSelfTime(profile, top))) print(line);
  let from = profile.startTime;
  for (const mark of profile.marks ?? []) {
    print(`  up to "${mark.line}":`);
    for (const line of selfTimeLines(topSelfTime(profile, top, from, mark.us))) print(line);
    from = mark.us;
  }
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: profile.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  printProfile(file, Number(top ?? 15));
}
