import { JsonRpcProvider } from "ethers";
import { confirmationsOption, rpcOption, type Env } from "../config/env";
import type { StewardshipSource } from "./days";
import { IndexerConfigError } from "../indexer/errors";
import type { Store } from "../store/open";
import { stewardshipSettings, type StewardshipFlags } from "./config";
import { openStewardshipMonitor } from "./monitor";

/** The monitor wired to its own RPC connection, and the way to close that connection. */
export interface StewardshipHandle {
  readonly source: StewardshipSource;
  close(): void;
}

/**
 * Opens the monitor for `augur cycle`: settings from flags, environment and config file, the
 * chain from --rpc (the keeper's), confirmations from --confirmations.
 */
export async function openStewardship(
  flags: StewardshipFlags & { rpc?: string; confirmations?: string },
  env: Env,
  store: Store,
): Promise<StewardshipHandle> {
  const settings = stewardshipSettings(flags, env);
  const rpc = rpcOption(flags, env);
  if (!/^https?:\/\/[^\s]+$/.test(rpc)) {
    throw new IndexerConfigError("the stewardship monitor needs --rpc (an http(s):// URL)");
  }
  const confirmations = confirmationsOption(flags, env);
  const provider = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const chainId = Number(await provider.send("eth_chainId", []));
    const source = await openStewardshipMonitor({ store, provider, chainId, settings, confirmations });
    return { source, close: () => provider.destroy() };
  } catch (error) {
    provider.destroy();
    throw error;
  }
}
