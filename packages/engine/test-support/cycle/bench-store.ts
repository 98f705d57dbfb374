/**
 * The cycle bench's store (`cycle.bench.ts`): an SQLite file (BENCH_DB, or a temporary one) or a
 * PostgreSQL database (BENCH_PG), seeded in a child process when it holds no season yet
 * (BENCH_SEED_ONLY=1 runs only that seeding; an SQLite file holding the first agents of the same
 * season is continued, see `seedBenchSeason`).
 *
 * PostgreSQL: the store is that database (seeded by `bench-season-pg.ts` when its log is empty,
 * else reused as it is). A throw-away cluster (PostgreSQL refuses to run as root: run these as its
 * owner, e.g. `su postgres -c '…'`; stop it when done):
 *   initdb -D <dir>/data -U augur_bench --auth=trust
 *   nice -n 10 pg_ctl -D <dir>/data -l <dir>/log -w -o "-p 5433 -k <dir> -c listen_addresses=127.0.0.1
 *     -c shared_buffers=512MB -c fsync=off -c synchronous_commit=off -c max_wal_size=8GB" start
 *   createdb -h 127.0.0.1 -p 5433 -U augur_bench bench_seed
 *   BENCH_PG=postgres://augur_bench@127.0.0.1:5433/bench_seed BENCH_SEED_ONLY=1 … (seed once)
 *   createdb -h 127.0.0.1 -p 5433 -U augur_bench -T bench_seed bench_run   (a copy per run)
 *   BENCH_PG=postgres://augur_bench@127.0.0.1:5433/bench_run … ; dropdb … bench_run
 *   pg_ctl -D <dir>/data -m fast stop
 * The peak RSS the bench prints is its own process's (the engine's), not the PostgreSQL server's.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { openStore } from "../../src/store/open";
import type { StoreLocation } from "../../src/store/location";
import { seedBenchSeason, type BenchSeasonShape } from "./bench-season";
import { seedBenchSeasonPg } from "./bench-season-pg";
import { s } from "./cycle-timing";

/** Whether the PostgreSQL store holds no log yet (then it is seeded; else reused as it is). */
async function logIsEmpty(location: StoreLocation): Promise<boolean> {
  const store = await openStore(location);
  try {
    return (await store.log.size(store.db)) === 0;
  } finally {
    await store.close();
  }
}

/** Seeds the store BENCH_PG or BENCH_DB (run in a child process of its own: see `benchStore`). */
export async function seedOnly(shape: BenchSeasonShape) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const url = process.env.BENCH_PG;
  const records = url
    ? await seedBenchSeasonPg({ url }, shape, console.log)
    : await seedBenchSeason(process.env.BENCH_DB!, shape, console.log);
  const used = process.cpuUsage(cpu);
  console.log(
    `seeded ${records.toLocaleString("en")} records in ${s(performance.now() - wall)} ` +
      `(cpu ${s((used.user + used.system) / 1000)})`,
  );
}

/**
 * The bench's store location: BENCH_PG's database, else the SQLite `file`; seeded first by
 * `bench` (the bench's own file) in a child process when it holds no season yet.
 */
export async function benchStore(bench: string, file: string): Promise<StoreLocation> {
  const url = process.env.BENCH_PG;
  const location: StoreLocation = url ? { kind: "postgres", url } : { kind: "sqlite", file };
  if (url ? await logIsEmpty(location) : !existsSync(file)) {
    // Seeding runs in a child process: its page cache and garbage would otherwise stay in this
    // process's RSS (freed memory is not handed back) and hide the cycles' own peak.
    const child = spawnSync(process.execPath, [...process.execArgv, bench], {
      stdio: "inherit",
      env: { ...process.env, BENCH_DB: file, BENCH_SEED_ONLY: "1" },
    });
    if (child.status !== 0) throw new Error(`seeding ${file} failed (exit ${child.status})`);
  }
  return location;
}
