import type { FundingTransfer, PoolSwap, TokenTransfer } from "@augur/scorer";
import type { StoredStewardshipSwap, StoredStewardshipTransfer } from "../store/queries/stewardship";

/** A monitored Uniswap v3 pool pairing the project token with the USD stablecoin (USDG). */
export interface MonitoredPool {
  /** Lowercase address. */
  readonly address: string;
  /** Read from the pool: whether the project token is its token0 (else USDG is). */
  readonly tokenIsToken0: boolean;
  /** Decimals of the pool's USD side, read from that token. */
  readonly usdDecimals: number;
}

/** Stored Transfer rows as the scorer's transfers (amounts exact bigints of base units). */
export function tokenTransfers(rows: readonly StoredStewardshipTransfer[]): TokenTransfer[] {
  return rows.map((r) => ({
    tx: r.tx_hash,
    logIndex: r.log_index,
    time: r.block_timestamp,
    from: r.from_address,
    to: r.to_address,
    amount: BigInt(r.amount),
  }));
}

/** Stored Transfer rows of another ERC-20 (USDG) as funding transfers of that asset, in chain order. */
export function fundingTransfers(
  asset: string,
  rows: readonly StoredStewardshipTransfer[],
): FundingTransfer[] {
  return tokenTransfers(rows).map((t) => ({ ...t, asset }));
}

const abs = (v: bigint) => (v < 0n ? -v : v);

/**
 * Stored Swap rows as the scorer's swaps, seen from the token's side. The pool's signed amounts
 * say the side: the token leaving the pool is a buy, entering it a sell. The USD value is the
 * USDG side of the swap at $1 a USDG (whole units of its decimals), so no price feed is involved.
 * The taker is whoever got or gave the tokens: for a buy the Swap's `recipient`; for a sell the
 * sender of the token Transfer into the pool earlier in the same transaction for the same amount
 * (a router pulls the seller's tokens straight into the pool), or `recipient` when there is none.
 * A swap that moved no token at all is not a trade and is left out.
 */
export function poolSwaps(
  rows: readonly StoredStewardshipSwap[],
  transfers: readonly StoredStewardshipTransfer[],
  pools: ReadonlyMap<string, MonitoredPool>,
): PoolSwap[] {
  const byTx = new Map<string, StoredStewardshipTransfer[]>();
  for (const t of transfers) {
    const list = byTx.get(t.tx_hash);
    if (list) list.push(t);
    else byTx.set(t.tx_hash, [t]);
  }
  const out: PoolSwap[] = [];
  for (const r of rows) {
    const pool = pools.get(r.pool);
    if (!pool) continue;
    const [tokenDelta, usdDelta] = pool.tokenIsToken0
      ? [BigInt(r.amount0), BigInt(r.amount1)]
      : [BigInt(r.amount1), BigInt(r.amount0)];
    if (tokenDelta === 0n) continue;
    const side = tokenDelta < 0n ? "buy" : "sell";
    const tokens = abs(tokenDelta);
    let taker = r.recipient;
    if (side === "sell") {
      const paid = (byTx.get(r.tx_hash) ?? [])
        .filter((t) => t.to_address === r.pool && t.log_index < r.log_index && BigInt(t.amount) === tokens)
        .sort((a, b) => b.log_index - a.log_index)[0];
      if (paid) taker = paid.from_address;
    }
    out.push({
      tx: r.tx_hash,
      logIndex: r.log_index,
      time: r.block_timestamp,
      pool: r.pool,
      taker,
      side,
      tokens,
      usd: Number(abs(usdDelta)) / 10 ** pool.usdDecimals,
    });
  }
  return out;
}
