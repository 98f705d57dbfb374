import { MaxUint256, type Contract, type Provider } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { time } from "@nomicfoundation/hardhat-network-helpers";
import type { IERC20 } from "../../typechain-types";
import { priceFromSqrtPriceX96 } from "./math";
import type { PoolEvent } from "./history";
import type { Replica, ReplicaStock, Side, StockRef, SwapOptions, SwapResult } from "./types";

// A fixed limit spares a gas estimation (a second execution of every swap); a v3 swap crossing a
// few dozen initialized ticks stays far below it.
const SWAP_GAS_LIMIT = 2_000_000n;

/** Everything deployed (or found on a fork) that the helpers act on. */
export type ReplicaCore = Omit<Replica, "stock" | "swap" | "priceUsdgPerShare" | "history" | "fund">;

/** How a token balance is conjured: minting on the replica, borrowing from the pool on a fork. */
export type Funder = (token: IERC20, account: string, amount: bigint) => Promise<void>;

/**
 * Wraps the deployed pieces with the helpers tests use. `events` holds each pool's price changes
 * (keyed by pool address); helpers append to it and prune what a snapshot revert undid, so one
 * object returned by `loadFixture` stays truthful across tests.
 */
export function createReplica(core: ReplicaCore, events: Map<string, PoolEvent[]>, funder: Funder): Replica {
  const provider = core.deployer.provider as Provider;

  const stock = (ref: StockRef): ReplicaStock => {
    if (typeof ref !== "string") return ref;
    const found = core.stocks.find((s) => s.symbol === ref);
    if (!found)
      throw new Error(`replica has no stock ${ref}; known: ${core.stocks.map((s) => s.symbol).join(", ")}`);
    return found;
  };

  const tokenOf = (ref: "USDG" | StockRef): IERC20 => (ref === "USDG" ? core.usdg : stock(ref).token);

  // A revert (loadFixture between tests) removes a suffix of blocks: drop events from the end until
  // one still sits in the canonical chain.
  const history = async (ref: StockRef): Promise<PoolEvent[]> => {
    const list = events.get(stock(ref).poolAddress) ?? [];
    while (list.length > 1) {
      const last = list[list.length - 1]!;
      const block = await provider.getBlock(last.blockNumber);
      if (block !== null && block.hash === last.blockHash) break;
      list.pop();
    }
    return [...list];
  };

  const fund = async (account: string, ref: "USDG" | StockRef, amount: bigint): Promise<void> => {
    await funder(tokenOf(ref), account, amount);
  };

  const ensure = async (signer: HardhatEthersSigner, token: IERC20, amount: bigint): Promise<void> => {
    const balance = await token.balanceOf(signer.address);
    if (balance < amount) await funder(token, signer.address, amount - balance);
    // Checked every time rather than remembered: a snapshot revert can undo an approval.
    const router = await core.router.getAddress();
    if ((await token.allowance(signer.address, router)) < amount) {
      await (await token.connect(signer).approve(router, MaxUint256)).wait();
    }
  };

  const swap = async (ref: StockRef, side: Side, amountIn: bigint, options: SwapOptions = {}) => {
    const s = stock(ref);
    const signer = options.from ?? core.trader;
    const tokenIn = side === "buy" ? core.usdg : s.token;
    const tokenOut = side === "buy" ? s.token : core.usdg;
    await ensure(signer, tokenIn, amountIn);
    await history(s); // prune before appending
    const before = await tokenOut.balanceOf(signer.address);
    if (options.at !== undefined) await time.setNextBlockTimestamp(options.at);
    const exactInputSingle = (core.router.connect(signer) as Contract).getFunction("exactInputSingle");
    const tx = (await exactInputSingle(
      {
        tokenIn: await tokenIn.getAddress(),
        tokenOut: await tokenOut.getAddress(),
        fee: s.fee,
        recipient: signer.address,
        deadline: MaxUint256,
        amountIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
      { gasLimit: SWAP_GAS_LIMIT },
    )) as { wait(): Promise<{ blockNumber: number; blockHash: string } | null> };
    const receipt = await tx.wait();
    if (receipt === null) throw new Error("swap was not mined");
    const event = await readPoolEvent(s, "swap", receipt.blockNumber, receipt.blockHash, provider);
    events.get(s.poolAddress)?.push(event);
    const amountOut = (await tokenOut.balanceOf(signer.address)) - before;
    return { ...event, side, amountIn, amountOut } satisfies SwapResult;
  };

  const priceUsdgPerShare = async (ref: StockRef): Promise<bigint> => {
    const s = stock(ref);
    const { sqrtPriceX96 } = await s.pool.slot0();
    return priceFromSqrtPriceX96(sqrtPriceX96, s.shape);
  };

  return { ...core, stock, swap, priceUsdgPerShare, history, fund };
}

/** The pool's slot0 as of `blockNumber`, stamped with that block's time and hash. */
export async function readPoolEvent(
  s: ReplicaStock,
  kind: PoolEvent["kind"],
  blockNumber: number,
  blockHash: string,
  provider: Provider,
): Promise<PoolEvent> {
  const [slot0, block] = await Promise.all([
    s.pool.slot0({ blockTag: blockNumber }),
    provider.getBlock(blockNumber),
  ]);
  if (block === null) throw new Error(`block ${blockNumber} not found`);
  return {
    kind,
    timestamp: block.timestamp,
    blockNumber,
    blockHash,
    tick: Number(slot0.tick),
    sqrtPriceX96: slot0.sqrtPriceX96,
  };
}
