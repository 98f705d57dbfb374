import type { Kysely, Selectable } from "kysely";
import type { ConsensusRoundsTable, Database } from "../schema";

export type ConsensusRound = Selectable<ConsensusRoundsTable>;

/** Consensus events of one market (asset, window), newest first. */
export async function consensusRounds(
  db: Kysely<Database>,
  asset: string,
  windowSeconds: number,
  limit: number,
): Promise<ConsensusRound[]> {
  return db
    .selectFrom("consensus_rounds")
    .selectAll()
    .where("asset", "=", asset)
    .where("window_seconds", "=", windowSeconds)
    .orderBy("bucket", "desc")
    .orderBy("block_number", "desc")
    .orderBy("log_index", "desc")
    .limit(limit)
    .execute();
}

/** Every market (asset, window) with at least one consensus event, busiest first. */
export async function consensusMarkets(db: Kysely<Database>) {
  return db
    .selectFrom("consensus_rounds")
    .select(["asset", "window_seconds"])
    .select((eb) => eb.fn.countAll<number>().as("events"))
    .groupBy(["asset", "window_seconds"])
    .orderBy("asset")
    .orderBy("window_seconds")
    .execute();
}
