/**
 * augur-snapshot/v2: a portfolio measured from the chain, derived from raw readings only (balances
 * in token base units, oracle prices, the hour's transfers), in exact integer arithmetic. The
 * engine seals the readings with the result; `augur verify --deep --rpc` re-reads them and calls
 * the same function. USDG amounts are in the USDG token's own base units, its decimals read from
 * the chain (`usdg.decimals`; deployments disagree between 6 and 18, so none is assumed). Rounding:
 * every conversion to USDG base units rounds toward zero, once per holding and once per transfer;
 * a holding's pro-rata share of its pool's aggregate quote rounds down (so the shares of one pool
 * never add up to more than the quote); invested basis points round down.
 */

export const MEASURED_SNAPSHOT_FORMAT = "augur-snapshot/v2" as const;

/** Prices are USDG per whole token with 18 decimals (PriceOracle), whatever the USDG token's own decimals. */
export const PRICE_DECIMALS = 18;

/** The USDG token as read from the chain: lowercase address and `decimals()`. */
export interface UsdgToken {
  readonly token: string;
  readonly decimals: number;
}

export interface HoldingReading {
  /** The stock token, lowercase address. */
  readonly token: string;
  readonly decimals: number;
  /** Balance in the token's base units at the pinned block. */
  readonly balance: bigint;
  /** `PriceOracle.priceAt(token, T)`: USDG per whole token, 18 decimals. */
  readonly price: bigint;
  /**
   * What selling the whole balance into the pool would fetch at the pinned block, USDG base units
   * (the mark is never above it); absent where no quote was taken.
   */
  readonly sellQuote?: bigint;
  /**
   * Every measured wallet's position in this token's pool at the pinned block, sold together:
   * the mark is never above this holding's pro-rata share of it (absent in records sealed before
   * the pooled rule, and where no quote was taken).
   */
  readonly pooled?: PooledReading;
}

/** All measured positions in one pool: their summed balance and what selling the sum would fetch. */
export interface PooledReading {
  /** Sum of every measured wallet's balance of the token, base units (≥ this holding's balance). */
  readonly balance: bigint;
  /** QuoterV2's quote for selling that sum into the pool at the pinned block, USDG base units. */
  readonly sellQuote: bigint;
}

export interface TransferReading {
  readonly token: string;
  /** Signed amount in the token's base units: positive into the wallet, negative out of it. */
  readonly amount: bigint;
}

export interface SnapshotReadings {
  /** The USDG token, its `decimals()` and its balance at the pinned block in its base units. */
  readonly usdg: UsdgToken & { readonly balance: bigint };
  readonly holdings: readonly HoldingReading[];
  /** Transfers with anything but a listed pool during the hour (deposits and withdrawals). */
  readonly flows: readonly TransferReading[];
}

export interface MeasuredSnapshot {
  /** USDG base units (the token's own, `usdg.decimals`), as are every amount below. */
  readonly nav: bigint;
  readonly stockValue: bigint;
  /** Net deposits minus withdrawals in the hour, USDG base units. */
  readonly flow: bigint;
  readonly investedBps: number;
  /** Each holding's mark, USDG base units, in input order. */
  readonly values: readonly bigint[];
}

/**
 * `amount` base units of a `decimals` token at `price` (18 decimals) in base units of a
 * `usdgDecimals` USDG, rounded toward zero (one division, so one rounding).
 */
export function usdgValue(amount: bigint, decimals: number, price: bigint, usdgDecimals: number): bigint {
  const magnitude =
    ((amount < 0n ? -amount : amount) * price * 10n ** BigInt(usdgDecimals)) /
    10n ** BigInt(decimals + PRICE_DECIMALS);
  return amount < 0n ? -magnitude : magnitude;
}

/**
 * `balance`'s pro-rata share of what selling every measured position in the pool together would
 * fetch: ⌊pooled.sellQuote × balance ÷ pooled.balance⌋ (0 for an empty pool total). A balance
 * above the total is refused: the total sums every measured balance, this one included.
 */
export function pooledShare(balance: bigint, pooled: PooledReading): bigint {
  if (balance < 0n || pooled.balance < balance || pooled.sellQuote < 0n)
    throw new RangeError(
      `pooled total ${pooled.balance} (quote ${pooled.sellQuote}) cannot hold a balance of ${balance}`,
    );
  return pooled.balance === 0n ? 0n : (pooled.sellQuote * balance) / pooled.balance;
}

/**
 * A holding's mark: its oracle value, never above what selling it alone into the pool would
 * fetch, nor above its pro-rata share of selling every measured position in the pool at once
 * (so agents that push one pool up together are each marked at what they could get out for
 * together). A lone holder's share is its own quote: the pooled cap changes nothing for it.
 */
export function markOf(h: HoldingReading, usdgDecimals: number): bigint {
  let mark = usdgValue(h.balance, h.decimals, h.price, usdgDecimals);
  if (h.sellQuote !== undefined && h.sellQuote < mark) mark = h.sellQuote;
  if (h.pooled !== undefined) {
    const share = pooledShare(h.balance, h.pooled);
    if (share < mark) mark = share;
  }
  return mark;
}

/**
 * NAV, flow and invested share from the readings. A transfer of USDG counts at face value; a
 * transfer of a stock token at the same oracle price as its holding (so a stock deposit moves
 * NAV and flow alike and is no return). A token moved without a listed price is refused.
 */
export function deriveSnapshot(readings: SnapshotReadings): MeasuredSnapshot {
  const byToken = new Map(readings.holdings.map((h) => [h.token, h]));
  const usdgDecimals = readings.usdg.decimals;
  const values = readings.holdings.map((h) => markOf(h, usdgDecimals));
  const stockValue = values.reduce((a, b) => a + b, 0n);
  const nav = readings.usdg.balance + stockValue;
  let flow = 0n;
  for (const t of readings.flows) {
    if (t.token === readings.usdg.token) {
      flow += t.amount;
      continue;
    }
    const h = byToken.get(t.token);
    if (!h) throw new RangeError(`transfer of ${t.token}, which has no holding reading`);
    flow += usdgValue(t.amount, h.decimals, h.price, usdgDecimals);
  }
  const investedBps = nav > 0n ? Number((stockValue * 10_000n) / nav) : 0;
  return { nav, stockValue, flow, investedBps, values };
}
