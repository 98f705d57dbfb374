import {
  checkDecisionRow,
  checkSnapshotRow,
  checkTradeRow,
  InvalidInputError,
  type AgentRule,
} from "@augur/scorer";
import { formatUnits } from "ethers";
import { RECORD_KIND, TIME_FIELD, type RecordTypeName } from "./fields";
import { SNAPSHOT_V1_USDG_DECIMALS, usdgDecimal } from "./usdg";
import type { NormalizedMessage } from "./validate";

/** Decision sources in the scorer's vocabulary (augur-score/v1 `decider`). */
export const DECIDER_OF_SOURCE: Readonly<Record<string, "agent" | "protective_exit" | "system_hold">> = {
  decider: "agent",
  "protective-exit": "protective_exit",
  "system-hold": "system_hold",
};

/** The message field each scorer row field comes from, to name the offending field in a refusal. */
const MESSAGE_FIELD: Readonly<Record<string, string>> = {
  at: "", // the record's time field, filled per type
  nav: "nav",
  flow: "flow",
  invested: "investedBps",
  decider: "source",
  asset: "asset",
  action: "action",
  side: "side",
  quantity: "quantity",
  price: "price",
};

// A time past a Date's range (±8.64 × 10^15 ms) becomes text the scorer refuses as a time, not a RangeError.
const iso = (seconds: number) => {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
};
const anyAgent: AgentRule = (value) => String(value);

/**
 * Runs the scorer's own rule for one record (`checkSnapshotRow`, `checkDecisionRow`,
 * `checkTradeRow` of augur-score/v1) on the message as the cycle will hand it over, so a record
 * the scorer would refuse is refused at ingestion, naming the message field. Registrations have
 * no scorer row.
 */
export function checkScorable(type: RecordTypeName, m: NormalizedMessage): void {
  try {
    if (type === "Snapshot")
      checkSnapshotRow(
        {
          agent: m.agentId,
          at: iso(m.takenAt as number),
          nav: usdgDecimal(m.nav as string, SNAPSHOT_V1_USDG_DECIMALS),
          flow: usdgDecimal(m.flow as string, SNAPSHOT_V1_USDG_DECIMALS),
          invested: (m.investedBps as number) / 10_000,
        },
        "row",
        anyAgent,
      );
    else if (RECORD_KIND[type] === "decision")
      checkDecisionRow(
        {
          agent: m.agentId,
          at: iso(m.decidedAt as number),
          decider: DECIDER_OF_SOURCE[m.source as string],
          asset: m.asset,
          action: m.action,
        },
        "row",
        anyAgent,
      );
    else if (type === "Trade")
      checkTradeRow(
        {
          agent: m.agentId,
          at: iso(m.executedAt as number),
          asset: m.asset,
          side: m.side,
          quantity: m.quantity,
          price: formatUnits(m.price as string, 18),
        },
        "row",
        anyAgent,
      );
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const rowField = error.path.replace(/^row\./, "");
    const field = rowField === "at" ? TIME_FIELD[type] : (MESSAGE_FIELD[rowField] ?? rowField);
    const problem = error.shortMessage.slice(error.path.length + 2);
    throw new InvalidInputError(`message.${field}`, `${problem} (augur-score/v1 refuses it)`);
  }
}
