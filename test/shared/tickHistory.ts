import type { Provider } from "ethers";
import { ethers } from "hardhat";
import { meanTickFloor } from "./tickPrice";

/**
 * A pool's tick over time, rebuilt off chain from its events, to check on-chain TWAPs against:
 * the tick in effect from the initialisation (Initialize event) and after each block's last swap
 * (Swap event). Uniswap's accumulator integrates exactly this step function.
 */
export interface TickStep {
  /** Block timestamp from which `tick` holds. */
  from: bigint;
  tick: bigint;
}

const POOL_EVENTS = new ethers.Interface([
  "event Initialize(uint160 sqrtPriceX96, int24 tick)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
]);

/** The tick step function of `pool` from its Initialize and Swap events up to the latest block. */
export async function tickHistory(provider: Provider, pool: string): Promise<TickStep[]> {
  const logs = await provider.getLogs({
    address: pool,
    fromBlock: 0,
    toBlock: "latest",
    topics: [[POOL_EVENTS.getEvent("Initialize")!.topicHash, POOL_EVENTS.getEvent("Swap")!.topicHash]],
  });
  const steps: TickStep[] = [];
  const timestamps = new Map<number, bigint>();
  for (const log of logs) {
    const parsed = POOL_EVENTS.parseLog(log);
    if (parsed === null) continue;
    let from = timestamps.get(log.blockNumber);
    if (from === undefined) {
      const block = await provider.getBlock(log.blockNumber);
      if (block === null) throw new Error(`no block ${log.blockNumber}`);
      from = BigInt(block.timestamp);
      timestamps.set(log.blockNumber, from);
    }
    const tick = BigInt(parsed.args.getValue("tick") as bigint);
    const last = steps.at(-1);
    // Several swaps in one block (or one second): only the last tick is ever observed.
    if (last !== undefined && last.from === from) last.tick = tick;
    else steps.push({ from, tick });
  }
  return steps;
}

/** The integral of the tick over [steps[0].from, t] (Uniswap's tickCumulative up to a constant). */
export function tickIntegral(steps: readonly TickStep[], t: bigint): bigint {
  let total = 0n;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.from >= t) break;
    const end = i + 1 < steps.length && steps[i + 1]!.from < t ? steps[i + 1]!.from : t;
    total += step.tick * (end - step.from);
  }
  return total;
}

/** The floored mean tick over [t - window, t], computed off chain from the recorded ticks. */
export function offChainMeanTick(steps: readonly TickStep[], t: bigint, window: bigint): bigint {
  return meanTickFloor(tickIntegral(steps, t - window), tickIntegral(steps, t), window);
}
