/**
 * augur-snapshot/v2: a portfolio measured from the chain, derived from raw readings only (balances
 * in token base units, oracle prices, the hour's transfers), in exact integer arithmetic. The
 * engine seals the readings with the result; `augur verify --deep --rpc` re-reads them and calls
 * the same function. Rounding: every conversion to USDG base units rounds toward zero, once per
 * holding and once per transfer; invested basis points round down.
 */

export const MEASURED_SNAPSHOT_FORMAT = "augur-snapshot/v2" as const;

/** Prices are USDG per whole token with 18 decimals (PriceOracle); USDG has 6: 10^12 between them. */
const PRICE_TO_USDG = 10n ** 12n;

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
}

export interface TransferReading {
  readonly token: string;
  /** Signed amount in the token's base units: positive into the wallet, negative out of it. */
  readonly amount: bigint;
}

export interface SnapshotReadings {
  /** The USDG token (lowercase address) and its balance at the pinned block, base units (6 decimals). */
  readonly usdg: { readonly token: string; readonly balance: bigint };
  readonly holdings: readonly HoldingReading[];
  /** Transfers with anything but a listed pool during the hour (deposits and withdrawals). */
  readonly flows: readonly TransferReading[];
}

export interface MeasuredSnapshot {
  /** USDG base units. */
  readonly nav: bigint;
  readonly stockValue: bigint;
  /** Net deposits minus withdrawals in the hour, USDG base units. */
  readonly flow: bigint;
  readonly investedBps: number;
  /** Each holding's mark, USDG base units, in input order. */
  readonly values: readonly bigint[];
}

/** `amount` whole-token units at `price` (18 decimals) in USDG base units, rounded toward zero. */
export function usdgValue(amount: bigint, decimals: number, price: bigint): bigint {
  const magnitude = ((amount < 0n ? -amount : amount) * price) / (10n ** BigInt(decimals) * PRICE_TO_USDG);
  return amount < 0n ? -magnitude : magnitude;
}

/** A holding's mark: its oracle value, never above what selling it into the pool would fetch. */
export function markOf(h: HoldingReading): bigint {
  const atOracle = usdgValue(h.balance, h.decimals, h.price);
  return h.sellQuote !== undefined && h.sellQuote < atOracle ? h.sellQuote : atOracle;
}

/**
 * NAV, flow and invested share from the readings. A transfer of USDG counts at face value; a
 * transfer of a stock token at the same oracle price as its holding (so a stock deposit moves
 * NAV and flow alike and is no return). A token moved without a listed price is refused.
 */
export function deriveSnapshot(readings: SnapshotReadings): MeasuredSnapshot {
  const byToken = new Map(readings.holdings.map((h) => [h.token, h]));
  const values = readings.holdings.map(markOf);
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
    flow += usdgValue(t.amount, h.decimals, h.price);
  }
  const investedBps = nav > 0n ? Number((stockValue * 10_000n) / nav) : 0;
  return { nav, stockValue, flow, investedBps, values };
}
