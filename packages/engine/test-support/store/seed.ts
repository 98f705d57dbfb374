import type { Kysely } from "kysely";
import { appendEngineRecords } from "../../src/store/append";
import { insertBatched } from "../../src/store/batch";
import { openStore, type Store } from "../../src/store/open";
import { insertScores, type ScoreRow } from "../../src/store/queries/scores";
import { insertSeason } from "../../src/store/queries/seasons";
import type { Database, SeasonInputs } from "../../src/store/schema";

// Seeding a store directly (no signatures, no cycle), shared by the benches' and fixtures' seeders.

const SEASON = "s1";

export interface SeasonStoreOptions {
  readonly startsAt: number;
  readonly name: string;
  /** Default: `startsAt`. */
  readonly createdAt?: number;
  readonly inputs?: SeasonInputs;
  /** A SQLite file; in memory by default. */
  readonly file?: string;
}

/** A new store holding season `s1`, 28 days from `startsAt`, open and not closed early. */
export async function seasonStore(options: SeasonStoreOptions): Promise<Store> {
  const store = await openStore({ kind: "sqlite", file: options.file ?? ":memory:" });
  await insertSeason(store.db, {
    id: SEASON,
    name: options.name,
    starts_at: options.startsAt,
    ends_at: options.startsAt + 28 * 86_400,
    closed_at: null,
    created_at: options.createdAt ?? options.startsAt,
    ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
  });
  return store;
}

/** One agent of season `s1` to seed: its `agents` row and the body of its registration record. */
export interface SeedAgent {
  readonly id: string;
  readonly creator: string;
  readonly style: string;
  readonly agentKey: string;
  readonly registration: unknown;
}

/** Appends each agent's registration record (at `at`) and stores its `agents` row with that seal. */
export async function registerSeedAgents(
  trx: Kysely<Database>,
  agents: readonly SeedAgent[],
  at: number,
): Promise<void> {
  const regs = await appendEngineRecords(
    trx,
    agents.map((a) => ({
      kind: "registration" as const,
      agentId: a.id,
      seasonId: SEASON,
      body: a.registration,
    })),
    at,
  );
  await insertBatched(
    trx,
    "agents",
    agents.map((a, k) => ({
      id: a.id,
      season_id: SEASON,
      creator: a.creator,
      style: a.style,
      agent_key: a.agentKey,
      registration_seal: regs[k]!.seal,
      registered_at: at,
    })),
  );
}

/** One sealed score of season `s1` to seed: the manifest and the row's own columns. */
export interface SeedScore {
  readonly agentId: string;
  readonly manifest: unknown;
  readonly row: Pick<ScoreRow, "formula" | "score" | "reason" | "rank" | "terms">;
}

/** Seals each manifest as a score record at `asOf` and stores its `scores` row with that seal. */
export async function sealSeedScores(
  trx: Kysely<Database>,
  scores: readonly SeedScore[],
  asOf: number,
): Promise<void> {
  const sealed = await appendEngineRecords(
    trx,
    scores.map((s) => ({ kind: "score" as const, agentId: s.agentId, seasonId: SEASON, body: s.manifest })),
    asOf,
  );
  await insertScores(
    trx,
    scores.map((s, k) => ({
      agent_id: s.agentId,
      season_id: SEASON,
      as_of: asOf,
      ...s.row,
      seal: sealed[k]!.seal,
      created_at: asOf,
    })),
  );
}
