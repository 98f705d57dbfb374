import { STEWARDSHIP_V1 } from "@augur/scorer";
import type { StewardshipSource, StewardshipSync } from "../../src/stewardship/days";
import type { Store } from "../../src/store/open";

/** Test fixtures of the stewardship monitor: a small scripted token history, written as stored logs. */

export const DAY = 86_400;
/** A UTC midnight: the first day of the scripted history. */
export const HISTORY_DAY0 = 20_834 * DAY;
export const addr = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(40, "0")}`;
export const TOKEN = addr("oaia");
export const POOL = addr("pool");
export const OPERATOR = addr("operator");
const T = 10n ** 18n;
const DUST = STEWARDSHIP_V1.dustWholeTokens * T;

/**
 * Writes a three-day history into the stewardship tables, as the followers would have stored it
 * (pool token0 = the token, USDG 6 decimals):
 * day 0: the operator seeds 3 wallets at the dust line; grace buys $600 (organic).
 * day 1: rita buys 100 and sells 90 back three times ($50 each way: rule (b)); grace buys $100.
 * day 2: one seeded wallet hands its tokens back; nothing trades.
 */
export async function writeScriptedHistory(store: Store, chainId = 31337): Promise<void> {
  let n = 0;
  const place = (time: number, logIndex: number) => {
    n += 1;
    return {
      chain_id: chainId,
      block_number: n,
      block_hash: `0x${(n + 5000).toString(16).padStart(64, "0")}`,
      block_timestamp: time,
      tx_hash: `0x${n.toString(16).padStart(64, "0")}`,
      log_index: logIndex,
    };
  };
  const transfers: Array<Record<string, unknown>> = [];
  const swaps: Array<Record<string, unknown>> = [];
  const send = (from: string, to: string, time: number, amount: bigint) =>
    transfers.push({
      token: TOKEN,
      from_address: from,
      to_address: to,
      amount: amount.toString(),
      ...place(time, 0),
    });
  const trade = (taker: string, side: "buy" | "sell", time: number, tokens: bigint, usd: bigint) => {
    const at = place(time, 0);
    const [from, to] = side === "buy" ? [POOL, taker] : [taker, POOL];
    transfers.push({ token: TOKEN, from_address: from, to_address: to, amount: tokens.toString(), ...at });
    const tokenDelta = side === "buy" ? -tokens : tokens;
    const usdDelta = side === "buy" ? usd * 10n ** 6n : -usd * 10n ** 6n;
    swaps.push({
      pool: POOL,
      sender: addr("router"),
      recipient: taker,
      amount0: tokenDelta.toString(),
      amount1: usdDelta.toString(),
      ...at,
      log_index: 1,
    });
  };
  const d0 = HISTORY_DAY0;
  send(`0x${"0".repeat(40)}`, OPERATOR, d0 + 10, 10n * DUST); // the mint
  for (const w of ["w1", "w2", "w3"]) send(OPERATOR, addr(w), d0 + 60, DUST);
  trade(addr("grace"), "buy", d0 + 3600, 10n * T, 600n);
  for (const hour of [2, 6, 10]) {
    trade(addr("rita"), "buy", d0 + DAY + hour * 3600, 100n * T, 50n);
    trade(addr("rita"), "sell", d0 + DAY + (hour + 1) * 3600, 90n * T, 50n);
  }
  trade(addr("grace"), "buy", d0 + DAY + 20 * 3600, 1n * T, 100n);
  send(addr("w3"), OPERATOR, d0 + 2 * DAY + 60, DUST);
  await store.db
    .insertInto("stewardship_transfers")
    .values(transfers as never)
    .execute();
  await store.db
    .insertInto("stewardship_swaps")
    .values(swaps as never)
    .execute();
}

/** A chain side whose final time the test moves by hand. */
export function fakeSource(chainId = 31337): StewardshipSource & { finalThrough: number; syncs: number } {
  const source = {
    finalThrough: 0,
    syncs: 0,
    scope: {
      chainId,
      token: TOKEN,
      decimals: 18,
      pools: [{ address: POOL, tokenIsToken0: true, usdDecimals: 6 }],
      excluded: [OPERATOR],
      firstDay: HISTORY_DAY0 / DAY,
    },
    async sync(): Promise<StewardshipSync> {
      source.syncs += 1;
      return { finalBlock: 100, finalThrough: source.finalThrough, stored: 0 };
    },
  };
  return source;
}
