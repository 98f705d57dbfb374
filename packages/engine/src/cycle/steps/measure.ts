import type { MeasureChain } from "../../measure/chain";
import { HOUR, measureHour, type MeasureSource } from "../../measure/hour";
import { appendEngineRecords } from "../../store/append";
import { seasonWallets } from "../../store/queries/agents";
import { seasonClosesAt } from "../../store/queries/seasons";
import { seasonsInTurn, type CycleStep } from "./step";

/**
 * Measure: at the cycle's hour boundary, every agent of a measured season that bound a wallet
 * (registered by then) is measured from the chain and sealed as `augur-snapshot/v2` (its hour's
 * swaps with listed pools as `augur-trade/v2`), before the
 * anchor step, so the snapshots join this cycle's head. Measuring is a pure function of the chain
 * at the pinned block, so a rerun seals the same records and appends nothing twice.
 */
export function measureStep(chain: MeasureChain, source: MeasureSource): CycleStep {
  return {
    name: "measure",
    runsWhenClosing: false,
    async run({ store, asOf, now, say }) {
      const at = Math.floor(asOf / HOUR) * HOUR;
      let measured = 0;
      for (const season of await seasonsInTurn(store, at, 0)) {
        if (season.inputs !== "measured" || at < season.starts_at || at > seasonClosesAt(season)) continue;
        const wallets = (await seasonWallets(store.db, season.id))
          .filter((a) => a.registered_at <= at)
          .map((a) => ({ agentId: a.id, wallet: a.wallet }));
        const hour = await measureHour(chain, source, season.id, wallets, at);
        const appended = await store.db
          .transaction()
          .execute((trx) => appendEngineRecords(trx, hour.records, now));
        measured += appended.filter((a) => a.created).length;
        for (const s of hour.skipped)
          say(`measure: ${season.id}/${s.agentId} not measured at ${at}: ${s.reason}`);
      }
      say(`measure: ${measured} snapshots and trades measured from the chain as of ${at}`);
      return { measured };
    },
  };
}
