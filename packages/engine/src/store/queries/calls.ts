import type { Kysely, Selectable } from "kysely";
import type { CallEventsTable, Database } from "../schema";
import type { Source } from "./events";

export type CallEvent = Selectable<CallEventsTable>;

/** The ledger's Settled / Expired events confirmed by block `through` and not sealed yet, in chain order. */
export async function unsealedResolutions(
  db: Kysely<Database>,
  source: Source,
  through: number,
): Promise<CallEvent[]> {
  return db
    .selectFrom("call_events")
    .selectAll()
    .where("chain_id", "=", source.chainId)
    .where("ledger", "=", source.address)
    .where("kind", "in", ["settled", "expired"])
    .where("record_seal", "is", null)
    .where("block_number", "<=", through)
    .orderBy("block_number")
    .orderBy("log_index")
    .execute();
}

/** Marks a resolution as sealed into the call record `seal`. */
export async function markResolutionSealed(
  trx: Kysely<Database>,
  event: Pick<CallEvent, "chain_id" | "tx_hash" | "log_index">,
  seal: string,
): Promise<void> {
  await trx
    .updateTable("call_events")
    .set({ record_seal: seal })
    .where("chain_id", "=", event.chain_id)
    .where("tx_hash", "=", event.tx_hash)
    .where("log_index", "=", event.log_index)
    .execute();
}

/** The payload of the call's Revealed event on this ledger, if it was seen. */
export async function revealedPayload(
  db: Kysely<Database>,
  source: Source,
  callId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("call_events")
    .select("payload")
    .where("chain_id", "=", source.chainId)
    .where("ledger", "=", source.address)
    .where("call_id", "=", callId)
    .where("kind", "=", "revealed")
    .executeTakeFirst();
  return row?.payload;
}
