import { NATIVE_ASSET } from "@augur/scorer";
import type { JsonRpcProvider } from "ethers";
import type { StewardshipScope, StewardshipSource, StewardshipSync } from "./days";
import { IndexerConfigError } from "../indexer/errors";
import { EventFollower, type ChainReader, type EventHandler, type Placed } from "../indexer/follow";
import { allOf } from "../indexer/ledger";
import type { Store } from "../store/open";
import { erc20, uniswapV3Pool } from "../chain/abi/stewardship";
import type { MonitoredPool } from "./chain-data";
import type { StewardshipSettings } from "./config";
import { NativeTransferEvents } from "./eth-transfers";
import { PoolSwapEvents, TokenTransferEvents } from "./events";
import { readLpLock } from "./lp-lock";

/** What the monitor needs from the chain: the follower's calls, and eth_call for the views. */
export type StewardshipChain = ChainReader & Pick<JsonRpcProvider, "call">;

export interface StewardshipMonitorOptions {
  readonly store: Store;
  readonly provider: StewardshipChain;
  readonly chainId: number;
  readonly settings: StewardshipSettings;
  /** Blocks an event must be under before a day that contains it is sealed (1 = mined). */
  readonly confirmations: number;
  readonly batchBlocks?: number;
}

async function view(provider: StewardshipChain, to: string, iface: typeof erc20, name: string) {
  let data: string;
  try {
    data = await provider.call({ to, data: iface.encodeFunctionData(name, []) });
  } catch (error) {
    throw new IndexerConfigError(`${to} has no ${name}(): ${(error as Error).message.split("\n")[0]}`);
  }
  if (data === "0x") throw new IndexerConfigError(`${to} has no ${name}() (no contract there?)`);
  return iface.decodeFunctionResult(name, data)[0] as unknown;
}

/**
 * The stewardship monitor on one chain: a block follower (the indexer's, with its reorg
 * handling) for the token's Transfer logs, one for USDG's and one for native ETH transfers
 * (funding sources) and one for each pool's Swap logs. Opening it reads
 * the token's decimals and each pool's pair from the chain, and refuses a pool that does not pair
 * the token with the configured USD stablecoin.
 */
export async function openStewardshipMonitor(options: StewardshipMonitorOptions): Promise<StewardshipSource> {
  const { store, provider, chainId, settings, confirmations } = options;
  const decimals = Number(await view(provider, settings.token, erc20, "decimals"));
  const usdDecimals = Number(await view(provider, settings.usd, erc20, "decimals"));
  const pools: MonitoredPool[] = [];
  for (const address of settings.pools) {
    const token0 = String(await view(provider, address, uniswapV3Pool, "token0")).toLowerCase();
    const token1 = String(await view(provider, address, uniswapV3Pool, "token1")).toLowerCase();
    const pair = [token0, token1].sort().join();
    if (pair !== [settings.token, settings.usd].sort().join()) {
      throw new IndexerConfigError(
        `pool ${address} pairs ${token0} with ${token1}, not the token with the USD stablecoin`,
      );
    }
    pools.push({ address, tokenIsToken0: token0 === settings.token, usdDecimals });
  }
  const start = await provider.getBlock(settings.startBlock);
  if (!start) throw new IndexerConfigError(`start block ${settings.startBlock} is beyond the chain head`);

  const follow = <E extends Placed>(address: string, handler: EventHandler<E>) =>
    new EventFollower<E>(
      {
        store,
        provider,
        source: { chainId, address },
        startBlock: settings.startBlock,
        confirmations,
        ...(options.batchBlocks ? { batchBlocks: options.batchBlocks } : {}),
      },
      handler,
    );
  const followers = allOf([
    follow(settings.token, new TokenTransferEvents({ chainId, address: settings.token }, confirmations)),
    // USDG's transfers too: they only tell who funded a trader, criterion (c).
    follow(settings.usd, new TokenTransferEvents({ chainId, address: settings.usd }, confirmations)),
    // And native ETH, from every block's transactions: the other usual funding of a wash cluster.
    follow(NATIVE_ASSET, new NativeTransferEvents({ chainId, address: NATIVE_ASSET }, confirmations)),
    ...pools.map((p) =>
      follow(p.address, new PoolSwapEvents({ chainId, address: p.address }, confirmations)),
    ),
  ]);
  const scope: StewardshipScope = {
    chainId,
    token: settings.token,
    usd: settings.usd,
    decimals,
    pools,
    excluded: settings.excluded,
    firstDay: Math.floor(start.timestamp / 86_400),
  };

  return {
    scope,
    ...(settings.lpLock ? { lpLock: (block: number) => readLpLock(provider, settings.lpLock!, block) } : {}),
    async sync(): Promise<StewardshipSync> {
      const report = await followers.poll();
      // Final: every follower has read it and it is under the confirmations.
      const finalBlock = Math.min(report.cursor, report.latest - confirmations + 1);
      if (finalBlock < settings.startBlock) return { finalBlock, finalThrough: 0, stored: report.stored };
      const block = await provider.getBlock(finalBlock);
      return { finalBlock, finalThrough: block?.timestamp ?? 0, stored: report.stored };
    },
  };
}
