import type { SettleReport } from "../../settler/settler";
import type { CycleStep } from "./step";

/** What the settle step needs: one pass of the settler (settler/settler.ts). */
export interface SettlePass {
  pass(): Promise<SettleReport>;
}

/**
 * Settle: resolves every call the ledger accepts a resolution of now (revealed calls past
 * `closesAt`, commits past their reveal timeout), bounded per pass. After the anchor step, so the
 * cycle's own post goes first on the account's one nonce; before the score step. The resolutions'
 * Settled / Expired events are sealed by the next indexer poll and join the next anchor. Runs when
 * the log is closing too: an open call locks its agent's stake, and settling adds no record.
 */
export function settleStep(settler: SettlePass): CycleStep {
  return {
    name: "settle",
    runsWhenClosing: true,
    async run(context) {
      const report = await settler.pass();
      context.say(
        `settler: ${report.due} due, ${report.settled} settled, ${report.expired} expired, ` +
          `${report.skipped} already resolved, ${report.failed.length} failed, gas ${report.gasUsed}` +
          (report.pending ? " (a transaction is still pending: the rest next cycle)" : ""),
      );
      return { settle: report };
    },
  };
}
