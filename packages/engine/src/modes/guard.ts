import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import { describeCause } from "./describe";
import { WindingDownError } from "./errors";
import { assertNotFinal } from "./final";
import { spendRefusal } from "./spend";
import { currentMode, modeHistory } from "./state";

/**
 * Refuses new spend outside active mode. "Spend" is any operator action that commits new project
 * funds: moving tokens or ETH out of an operator wallet, funding or staking a house agent,
 * opening a season (it commits house agents and their funding). Keeper gas is not spend: the
 * ledger keeps running in maintenance, and the wind-down needs its final anchor. Tools without
 * the store read the mode over HTTP with `assertMaySpendAt` (spend.ts), which decides the same way.
 */
export async function assertMaySpend(db: Kysely<Database>, action: string): Promise<void> {
  const refused = spendRefusal(await currentMode(db), action, "operator");
  if (refused) throw refused;
}

/**
 * Refuses every new record or write once the system winds down: nothing is stored. The message
 * names the wind-down's day and cause, also once archived (the archive adds its own day); after
 * the final notice, the refusal names it.
 */
export async function assertAcceptingWrites(db: Kysely<Database>): Promise<void> {
  await assertNotFinal(db);
  const state = await currentMode(db);
  if (state.mode !== "wind-down" && state.mode !== "archived") return;
  const windDown =
    state.mode === "wind-down" ? state : (await modeHistory(db)).filter((m) => m.mode === "wind-down").pop();
  const archive = state.mode === "archived" ? `; a read-only archive since ${state.since}` : "";
  throw new WindingDownError(
    `the system is winding down since ${windDown?.since} (${describeCause(windDown?.cause ?? null)}): no new records are accepted${archive}`,
    { mode: state.mode, since: windDown?.since },
  );
}
