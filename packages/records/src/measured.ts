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
  readonly usdg: { readonly token: string; readonly balance: string };
  readonly holdings: ReadonlyArray<{
    readonly token: string;
    readonly decimals: number;
    readonly balance: string;
    readonly price: string;
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
