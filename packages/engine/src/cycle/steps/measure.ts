import { readCarried, type CarriedRead } from "../../measure/carried";
import type { MeasureChain } from "../../measure/chain";
import { HOUR, measureHour, type HourBalances, type MeasureSource } from "../../measure/hour";
import { appendEngineRecords } from "../../store/append";
import type { Store } from "../../store/open";
import { seasonWallets } from "../../store/queries/agents";
import { loadCarried, saveCarried } from "../../store/queries/carried-balances";
import { lastMeasuredHour, markHourMeasured } from "../../store/queries/measured-hours";
import { seasonClosesAt, type Season } from "../../store/queries/seasons";
import { seasonsInTurn, type CycleStep } from "./step";

/**
 * Measure: every hour boundary of a measured season that is due and not yet measured, oldest
 * first: each agent that bound a wallet (registered by that hour) is measured from the chain and
 * sealed as `augur-snapshot/v2` (its hour's swaps with listed pools as `augur-trade/v2`), before
 * the anchor step, so the snapshots join this cycle's head. Hours the cycle missed (the engine was
 * down) are measured at their own pinned blocks, as if the cycle had run then; the season's last
 * boundary is measured even when the engine comes back after its close. Each hour's records and its
 * mark (`measured_hours`) commit in one transaction, so a crash loses at most the hour in flight,
 * and a rerun resumes after the last mark; measuring is a pure function of the chain at the pinned
 * block, so even a repeated hour seals the same records and appends nothing twice. Balances are
 * carried from the tokens' Transfer logs between measured blocks (`measure/carried.ts`, the state
 * saved with the hour's mark); a reorg below the carried block, or going back, reads them in full.
 */
export function measureStep(chain: MeasureChain, source: MeasureSource): CycleStep {
  return {
    name: "measure",
    runsWhenClosing: false,
    async run({ store, asOf, now, say }) {
      const at = Math.floor(asOf / HOUR) * HOUR;
      let measured = 0;
      for (const season of await seasonsInTurn(store, at, Infinity)) {
        if (season.inputs !== "measured") continue;
        const hours = await dueHours(store, season, at);
        if (hours.length > 1) say(`measure: ${season.id} catches up ${hours.length} hours from ${hours[0]}`);
        for (const hour of hours) {
          const wallets = (await seasonWallets(store.db, season.id))
            .filter((a) => a.registered_at <= hour)
            .map((a) => ({ agentId: a.id, wallet: a.wallet }));
          const prior = await loadCarried(store.db, season.id);
          let carried: CarriedRead | undefined;
          const balances: HourBalances = async (block, addresses, tokens) =>
            (carried = await readCarried(chain, prior, block, hour, addresses, tokens));
          const result = await measureHour(chain, source, season.id, wallets, hour, { balances });
          const read = carried as CarriedRead | undefined;
          if (read) say(carriedLine(season.id, hour, read));
          const appended = await store.db.transaction().execute(async (trx) => {
            const rows = await appendEngineRecords(trx, result.records, now);
            await markHourMeasured(trx, season.id, hour, now);
            if (read) await saveCarried(trx, season.id, prior, read.state);
            return rows;
          });
          measured += appended.filter((a) => a.created).length;
          for (const s of result.skipped)
            say(`measure: ${season.id}/${s.agentId} not measured at ${hour}: ${s.reason}`);
        }
      }
      say(`measure: ${measured} snapshots and trades measured from the chain as of ${at}`);
      return { measured };
    },
  };
}

/** One line on how the hour's balances were read; every mismatch named (the chain's value was taken). */
function carriedLine(seasonId: string, hour: number, read: CarriedRead): string {
  const how = read.fullRead
    ? `read in full (${read.fullRead})`
    : `carried over ${read.transfers?.length ?? 0} transfers, ${read.checked} wallets read with balanceOf`;
  const wrong = read.mismatches.map((m) => `${m.wallet} ${m.token} carried ${m.carried}, chain ${m.chain}`);
  return `measure: ${seasonId} balances at ${hour} ${how}; ${read.mismatches.length} mismatches${wrong.length ? `: ${wrong.join("; ")}` : ""}`;
}

/** The season's hour boundaries after its last measured one, through `at` and its close, in order. */
async function dueHours(store: Store, season: Season, at: number): Promise<number[]> {
  const first = Math.ceil(season.starts_at / HOUR) * HOUR;
  const last = Math.min(at, Math.floor(seasonClosesAt(season) / HOUR) * HOUR);
  const done = await lastMeasuredHour(store.db, season.id);
  const hours: number[] = [];
  for (let h = done === undefined ? first : Math.max(first, done + HOUR); h <= last; h += HOUR) hours.push(h);
  return hours;
}
