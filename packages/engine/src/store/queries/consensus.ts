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
