import type { ContractWalletCheck } from "../records/wallet";
import type { Store } from "../store/open";

/** What the routes need from the process: the store, the chain records are signed for, a clock. */
export interface ApiDeps {
  readonly store: Store;
  readonly chainId: number;
  /** Unix seconds. */
  readonly now: () => number;
  /** EIP-1271 checks of contract wallets bound at registration; without it only EOAs can bind. */
  readonly contractWallets?: ContractWalletCheck;
}
