import { attachSurface } from "./attach";
import { chainEntry, forkedChainId } from "./chains";
import type { Replica } from "./types";

/** Robinhood Chain's real trading surface on a fork of `forkUrl`, behind the replica's interface. */
export async function attachFork(forkUrl: string): Promise<Replica> {
  const chainId = await forkedChainId(forkUrl);
  return attachSurface(chainEntry(chainId), chainId);
}
