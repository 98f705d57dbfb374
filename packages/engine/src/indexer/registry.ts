import type { JsonRpcProvider } from "ethers";
import type { Store } from "../store/open";
import { AnchoredEvents } from "./anchors";
import { EventFollower } from "./follow";

export interface RegistryIndexerOptions {
  readonly store: Store;
  readonly provider: JsonRpcProvider;
  readonly chainId: number;
  readonly registry: string;
  readonly startBlock: number;
  readonly confirmations: number;
  readonly batchBlocks?: number;
  /** Unix seconds, for the anchors' `recorded_at`. */
  readonly now: () => number;
}

/** The follower of one AnchorRegistry's `Anchored` events. */
export function registryIndexer(options: RegistryIndexerOptions): EventFollower {
  const source = { chainId: options.chainId, address: options.registry.toLowerCase() };
  return new EventFollower(
    { ...options, source },
    new AnchoredEvents(source, options.confirmations, options.now),
  );
}
