/**
 * augur-trade/v2: a trade measured from the chain. A swap on a listed pool shows in the wallet as
 * two ERC-20 transfers with that pool in one transaction: the stock leg (in: a buy, out: a sell)
 * and the USDG leg the other way. Effective price = USDG paid or received per whole token, 18
 * decimals, rounded down. A transaction whose legs do not pair up (a multi-hop route through
 * another pool, a donation, a leg of zero on either side) is no trade of that pool: the engine
 * reports it and seals nothing.
 */

import { PRICE_DECIMALS, type UsdgToken } from "./snapshot";

export const MEASURED_TRADE_FORMAT = "augur-trade/v2" as const;

export interface PoolTransfer {
  readonly token: string;
  readonly pool: string;
  /** Signed, base units: positive into the wallet. */
  readonly amount: bigint;
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: number;
}

export interface MeasuredTrade {
  readonly pool: string;
  readonly asset: string;
  readonly side: "buy" | "sell";
  /** Stock base units. */
  readonly quantity: bigint;
  /** USDG base units (the token's own decimals) paid (buy) or received (sell). */
  readonly usdgAmount: bigint;
  /** USDG per whole token, 18 decimals, rounded down. */
  readonly price: bigint;
  readonly txHash: string;
  /** The stock leg's log index (the trade's identity with `txHash`). */
  readonly logIndex: number;
  readonly blockNumber: number;
}

/** Pairs the wallet's transfers with listed pools into trades; `decimals` of each stock, USDG's in `usdg`. */
export function pairTrades(
  transfers: readonly PoolTransfer[],
  usdg: UsdgToken,
  decimals: ReadonlyMap<string, number>,
): { trades: MeasuredTrade[]; unpaired: PoolTransfer[] } {
  const groups = new Map<string, PoolTransfer[]>();
  for (const t of transfers) {
    const key = `${t.txHash}|${t.pool}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const trades: MeasuredTrade[] = [];
  const unpaired: PoolTransfer[] = [];
  for (const legs of groups.values()) {
    const stock = legs.filter((l) => l.token !== usdg.token);
    const cash = legs.filter((l) => l.token === usdg.token);
    const s = stock[0];
    const c = cash[0];
    if (
      stock.length !== 1 ||
      cash.length !== 1 ||
      !s ||
      !c ||
      s.amount === 0n ||
      c.amount === 0n ||
      s.amount > 0n === c.amount > 0n
    ) {
      unpaired.push(...legs);
      continue;
    }
    const quantity = s.amount < 0n ? -s.amount : s.amount;
    const usdgAmount = c.amount < 0n ? -c.amount : c.amount;
    const d = decimals.get(s.token);
    if (d === undefined) throw new RangeError(`no decimals for ${s.token}`);
    trades.push({
      pool: s.pool,
      asset: s.token,
      side: s.amount > 0n ? "buy" : "sell",
      quantity,
      usdgAmount,
      price: (usdgAmount * 10n ** BigInt(d + PRICE_DECIMALS)) / (quantity * 10n ** BigInt(usdg.decimals)),
      txHash: s.txHash,
      logIndex: s.logIndex,
      blockNumber: s.blockNumber,
    });
  }
  trades.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  return { trades, unpaired };
}
