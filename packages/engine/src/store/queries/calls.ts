import type { Kysely, Selectable } from "kysely";
import type { CallEventsTable, Database } from "../schema";
import type { Source } from "./events";

export type CallEvent = Selectable<CallEventsTable>;

/** The ledger's call events confirmed by block `through` and not sealed yet, in chain order. */
export async function unsealedCallEvents(
  db: Kysely<Database>,
  source: Source,
  through: number,
): Promise<CallEvent[]> {
  return db
    .selectFrom("call_events")
    .selectAll()
    .where("chain_id", "=", source.chainId)
    .where("ledger", "=", source.address)
    .where("record_seal", "is", null)
    .where("block_number", "<=", through)
    .orderBy("block_number")
    .orderBy("log_index")
    .execute();
}

/** Marks a call event as sealed into the call record `seal`. */
export async function markEventSealed(
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

/** An open call the ledger lets anyone resolve now: settle a revealed call, expire a commit. */
export interface DueCall {
  readonly callId: string;
  readonly agent: string;
  readonly action: "settle" | "expire";
  /** Unix seconds from which the ledger accepts it: `closesAt`, or the reveal deadline + 1. */
  readonly dueAt: number;
}

/**
 * The calls on this ledger seen committed or revealed and not yet seen settled or expired whose
 * resolution the ledger accepts at chain time `chainNow` (reveal deadline: committedAt +
 * `revealTimeout`, expirable strictly after it), the longest-due first, at most `limit`; and how
 * many were due in all.
 */
export async function dueCalls(
  db: Kysely<Database>,
  source: Source,
  chainNow: number,
  revealTimeout: number,
  limit: number,
): Promise<{ due: DueCall[]; total: number }> {
  const rows = await db
    .selectFrom("call_events")
    .select(["call_id", "agent", "kind", "payload"])
    .where("chain_id", "=", source.chainId)
    .where("ledger", "=", source.address)
    .where("kind", "in", ["committed", "revealed"])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("call_events as r")
            .select("r.call_id")
            .whereRef("r.chain_id", "=", "call_events.chain_id")
            .whereRef("r.ledger", "=", "call_events.ledger")
            .whereRef("r.call_id", "=", "call_events.call_id")
            .where("r.kind", "in", ["settled", "expired"]),
        ),
      ),
    )
    .execute();
  const revealed = new Set(rows.filter((r) => r.kind === "revealed").map((r) => r.call_id));
  const calls: DueCall[] = [];
  for (const row of rows) {
    const payload = JSON.parse(row.payload) as { committedAt?: number; closesAt?: number };
    if (row.kind === "revealed") {
      calls.push({
        callId: row.call_id,
        agent: row.agent,
        action: "settle",
        dueAt: Number(payload.closesAt),
      });
    } else if (!revealed.has(row.call_id)) {
      const dueAt = Number(payload.committedAt) + revealTimeout + 1;
      calls.push({ callId: row.call_id, agent: row.agent, action: "expire", dueAt });
    }
  }
  const due = calls
    .filter((c) => c.dueAt <= chainNow)
    .sort((a, b) => a.dueAt - b.dueAt || (a.callId < b.callId ? -1 : 1));
  return { due: due.slice(0, limit), total: due.length };
}
