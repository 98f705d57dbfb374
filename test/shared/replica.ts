import { buildReplica } from "../../scripts/replica/build";
import type { Replica } from "../../scripts/replica/types";

export type {
  Replica,
  ReplicaStock,
  Side,
  SwapResult,
  SwapOptions,
  StockRef,
} from "../../scripts/replica/types";
export type { PoolEvent } from "../../scripts/replica/history";
export { tickCumulativeDelta, tickAt, twapTick } from "../../scripts/replica/history";
export {
  priceFromSqrtPriceX96,
  sqrtPriceX96FromPrice,
  approxPriceAtTick,
  PRICE_ONE,
} from "../../scripts/replica/math";

/**
 * The replica of Robinhood Chain's trading surface, for `loadFixture(deployReplica)`: USDG, three
 * stock tokens with USDG pools in both token orders, Uniswap v3 from the official artifacts and
 * 48 simulated hours of trading.
 */
export async function deployReplica(): Promise<Replica> {
  return buildReplica();
}
