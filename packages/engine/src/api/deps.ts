import type { ContractWalletCheck } from "../records/wallet";
import type { Store } from "../store/open";

/** What the routes need from the process: the store, the chain records are signed for, a clock. */
export interface ApiDeps {
  readonly store: Store;
  readonly chainId: number;
  /** Unix seconds. */
  readonly now: () => number;
  /** Tickers of the traded assets (ticker → token address): shown for addresses, accepted for them. */
  readonly assets?: Readonly<Record<string, string>>;
  /** The operator's names of creators (name → address): display only, never sealed or scored. */
  readonly creators?: Readonly<Record<string, string>>;
  /** Seconds a record's time may lie before its arrival (default: ingestion's 10 minutes). */
  readonly recordGrace?: number;
  /** EIP-1271 checks of contract wallets bound at registration; without it only EOAs can bind. */
  readonly contractWallets?: ContractWalletCheck;
}
