/**
 * A V8 CPU profile of one stretch of a bench (node:inspector, in process), summarised as the
 * functions with the most self time: what `--cpu-prof` gives for a whole run, for one cycle.
 */
import { writeFileSync } from "node:fs";
import { Session, type Profiler } from "node:inspector";

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))),
  );
}

/** Runs `fn` under the profiler; writes the profile to `file` (for DevTools) and returns `fn`'s value. */
export async function profiled<T>(file: string, fn: () => Promise<T>): Promise<{ value: T; top: string[] }> {
  const session = new Session();
  session.connect();
  try {
    await post(session, "Profiler.enable");
    await post(session, "Profiler.setSamplingInterval", { interval: 1000 });
    await post(session, "Profiler.start");
    const value = await fn();
    const { profile } = await post<{ profile: Profiler.Profile }>(session, "Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    return { value, top: topSelfTime(profile, 15) };
  } finally {
    session.disconnect();
  }
}

/**
 * The `count` functions with the most self time, one line each: share of the busy samples, sampled
 * ms, name and place. better-sqlite3's native `run` and `all` stand for SQLite itself.
 */
export function topSelfTime(profile: Profiler.Profile, count: number): string[] {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byNode = new Map<number, number>();
  // Each sample's time is the delta to the next one (the last sample gets none).
  samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (deltas[i + 1] ?? 0)));
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    // Waiting (on PostgreSQL, on a worker) is not this process's CPU.
    if (us === 0 || functionName === "(idle)") continue;
    const place = url ? ` ${url.replace(/^.*\/(node_modules|packages)\//, "$1/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"}${place}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    total += us;
  }
  return [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([key, us]) =>
        `${((100 * us) / total).toFixed(1).padStart(5)} % ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
}
