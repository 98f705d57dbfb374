import { ethers } from "hardhat";
import { setBalance, time } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { id, MaxUint256 } from "ethers";
import { STEWARDSHIP_V1 } from "@augur/scorer";
import { openStewardshipMonitor, type StewardshipSource, type Store } from "@augur/engine";
import { TokenBatcher__factory, type MockStockToken, type TokenBatcher } from "../../typechain-types";
import { openProjectToken } from "../../scripts/replica/project-token";
import { buildReplica, type Replica, type ReplicaStock, type Side, type SwapResult } from "./replica";

/**
 * A project token on the replica, scripted day by day for the stewardship monitor: the token and
 * its USDG pool, a TokenBatcher for seeding many holders in one transaction, and a clock that
 * keeps every block in order. Shared by the stewardship and modes replica tests.
 */

export const DAY = 86_400;
export const HOUR = 3600;
/** Dollars as raw USDG (6 decimals). */
export const USDG = (dollars: number): bigint => BigInt(dollars) * 10n ** 6n;
/** Whole project tokens as raw units (18 decimals). */
export const TOKENS = (whole: bigint | number): bigint => BigInt(whole) * 10n ** 18n;
/** The stewardship dust line in raw units: a wallet holding exactly this counts as a holder. */
export const DUST = TOKENS(STEWARDSHIP_V1.dustWholeTokens);

export interface ProjectTokenChain {
  /** The replica whose only stock is the project token (swap and fund work on it). */
  readonly project: Replica;
  readonly stock: ReplicaStock;
  /** The token, connected to its owner (the replica's deployer), who mints. */
  readonly token: MockStockToken;
  readonly batcher: TokenBatcher;
  /** The block mined just before the token existed: the monitor's start block. */
  readonly startBlock: number;
  /** Unix seconds of the UTC midnight that starts day 0 of the script. */
  readonly midnight: number;
  /** Fresh holder addresses (no key: they act through impersonation), `label 0` … `label n−1`. */
  wallets(n: number, label?: string): string[];
}

/**
 * For `loadFixture`: moves to a fresh UTC day (so day 0 of the script is the monitor's first
 * day), then builds a replica with no stocks, the project token OAIA at $0.01 with a deep USDG
 * pool ($5M a side, so scripted trades barely move the price), and a TokenBatcher.
 */
export async function projectTokenChain(): Promise<ProjectTokenChain> {
  const midnight = (Math.floor((await time.latest()) / DAY) + 2) * DAY;
  await time.increaseTo(midnight + 60);
  const startBlock = await ethers.provider.getBlockNumber();
  const replica = await buildReplica({ stocks: [], hours: 0 });
  const project = await openProjectToken(replica, {
    symbol: "OAIA",
    name: "OAIA (replica)",
    price: "0.01",
    fee: 3000,
    liquidityUsdg: USDG(5_000_000),
  });
  const stock = project.stocks[0]!;
  const batcher = await new TokenBatcher__factory(replica.deployer).deploy();
  return {
    project,
    stock,
    token: stock.token.connect(replica.deployer),
    batcher,
    startBlock,
    midnight,
    wallets: (n, label = "holder") =>
      Array.from({ length: n }, (_, i) => ethers.getAddress(`0x${id(`${label} ${i}`).slice(26)}`)),
  };
}

/** Mints `amount` to an operator wallet and lets the batcher move its tokens (for `seed`). */
export async function fundOperator(
  chain: ProjectTokenChain,
  operator: HardhatEthersSigner,
  amount: bigint,
): Promise<void> {
  await (await chain.token.mint(operator.address, amount)).wait();
  await (await chain.token.connect(operator).approve(await chain.batcher.getAddress(), MaxUint256)).wait();
}

/** The engine's stewardship monitor over the chain's token and pool, the given wallets excluded. */
export async function openTokenMonitor(
  store: Store,
  chain: ProjectTokenChain,
  excluded: readonly HardhatEthersSigner[],
  batchBlocks?: number,
  lpLock?: { readonly lock: string; readonly position: string },
): Promise<StewardshipSource> {
  return openStewardshipMonitor({
    store,
    provider: ethers.provider,
    chainId: Number((await ethers.provider.getNetwork()).chainId),
    settings: {
      token: chain.stock.address.toLowerCase(),
      pools: [chain.stock.poolAddress.toLowerCase()],
      usd: (await chain.project.usdg.getAddress()).toLowerCase(),
      excluded: excluded.map((s) => s.address.toLowerCase()),
      startBlock: chain.startBlock,
      ...(lpLock ? { lpLock } : {}),
    },
    confirmations: 1,
    ...(batchBlocks !== undefined ? { batchBlocks } : {}),
  });
}

/**
 * Writes a token history on chain at scripted times. Each action is mined at the time asked,
 * or just after the previous block when that time has passed, so blocks stay in order whatever
 * else (a keeper's anchor) was mined in between.
 */
export class TokenScript {
  private constructor(
    private readonly chain: ProjectTokenChain,
    /** The newest block time this script set (unix seconds). */
    public clock: number,
  ) {}

  static async start(chain: ProjectTokenChain): Promise<TokenScript> {
    return new TokenScript(chain, await time.latest());
  }

  /** Makes `t` (or the next free second) the next block's time and returns it. */
  async at(t: number): Promise<number> {
    this.clock = Math.max(t, this.clock + 1, (await time.latest()) + 1);
    await time.setNextBlockTimestamp(this.clock);
    return this.clock;
  }

  /** A swap through the project pool; the swap sets its own block time, after any approval it mines. */
  async swap(who: HardhatEthersSigner, side: Side, amountIn: bigint, t: number): Promise<SwapResult> {
    const at = Math.max(t, this.clock + 5, (await time.latest()) + 5);
    const result = await this.chain.project.swap(this.chain.stock, side, amountIn, { from: who, at });
    this.clock = result.timestamp;
    return result;
  }

  /** A plain token transfer. */
  async send(from: HardhatEthersSigner, to: string, amount: bigint, t: number): Promise<void> {
    await this.at(t);
    await (await this.chain.token.connect(from).transfer(to, amount)).wait();
  }

  /** `amount` to each of `wallets` from `from`, in one transaction (the batcher; see fundOperator). */
  async seed(
    from: HardhatEthersSigner,
    wallets: readonly string[],
    amount: bigint,
    t: number,
  ): Promise<void> {
    await this.at(t);
    const batch = this.chain.batcher.connect(from);
    await (
      await batch.send(
        this.chain.stock.address,
        [...wallets],
        wallets.map(() => amount),
      )
    ).wait();
  }

  /** Each of `holders` (keyless wallets, impersonated) sends `amount` to `to`. */
  async handBack(holders: readonly string[], to: string, amount: bigint, t: number): Promise<void> {
    for (const holder of holders) {
      await setBalance(holder, 10n ** 18n);
      await this.send(await ethers.getImpersonatedSigner(holder), to, amount, t);
    }
  }

  /** Mines a block just past the midnight that closes day `d` of the script: that day can be sealed. */
  async closeDay(d: number): Promise<number> {
    await this.at(this.chain.midnight + (d + 1) * DAY + 60);
    await ethers.provider.send("evm_mine", []);
    return this.clock;
  }
}
