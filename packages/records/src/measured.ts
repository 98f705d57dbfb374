/**
 * The engine-authored snapshot (`augur-snapshot/v2`, docs/augur-score-v1.md): the readings it was
 * derived from and the result, 256-bit amounts as decimal strings. Sealed as is (no signature).
 */
export interface MeasuredSnapshotBody {
  readonly format: "augur-snapshot/v2";
  readonly agentId: string;
  readonly seasonId: string;
  readonly wallet: string;
  readonly takenAt: number;
  readonly block: { readonly number: number; readonly hash: string; readonly timestamp: number };
  /** Flows are the transfers in blocks (flowsAfterBlock, block.number]; −1: since genesis. */
  readonly flowsAfterBlock: number;
  /** The USDG token's `decimals()` read from the chain: the unit of every USDG amount in this body. */
  readonly usdgDecimals: number;
  readonly usdg: { readonly token: string; readonly balance: string };
  readonly holdings: ReadonlyArray<{
    readonly token: string;
    readonly decimals: number;
    readonly balance: string;
    readonly price: string;
    /** What selling the whole balance into its pool would fetch at the block (when a quoter is set). */
    readonly sellQuote?: string;
    /**
     * Added with the pooled rule (absent in records sealed before it): every measured wallet's
     * balance of the token summed, and what selling that sum would fetch at the block.
     */
    readonly pooled?: { readonly balance: string; readonly sellQuote: string };
    /** The mark: the oracle value, never above `sellQuote` nor the pro-rata share of `pooled.sellQuote`. */
    readonly value: string;
  }>;
  readonly transfers: ReadonlyArray<{
    readonly token: string;
    readonly txHash: string;
    readonly logIndex: number;
    readonly block: number;
    readonly counterparty: string;
    readonly amount: string;
  }>;
  readonly nav: string;
  readonly stockValue: string;
  readonly flow: string;
  readonly investedBps: number;
}

/** The engine-authored trade (`augur-trade/v2`): one swap of the wallet with a listed pool. */
export interface MeasuredTradeBody {
  readonly format: "augur-trade/v2";
  readonly agentId: string;
  readonly seasonId: string;
  readonly wallet: string;
  readonly pool: string;
  readonly asset: string;
  readonly side: "buy" | "sell";
  /** Stock base units. */
  readonly quantity: string;
  /** The USDG token's `decimals()` read from the chain: the unit of `usdgAmount`. */
  readonly usdgDecimals: number;
  /** USDG base units paid (buy) or received (sell). */
  readonly usdgAmount: string;
  /** Effective price: USDG per whole token, 18 decimals, rounded down. */
  readonly price: string;
  readonly txHash: string;
  /** The stock leg's Transfer log index. */
  readonly logIndex: number;
  readonly block: number;
  /** The block's timestamp. */
  readonly executedAt: number;
}
