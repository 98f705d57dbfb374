import { id, MaxUint256, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { time } from "@nomicfoundation/hardhat-network-helpers";
import { STEWARDSHIP_V1 } from "@augur/scorer";
import type { StewardshipSettings } from "@augur/engine";
import {
  LiquidityLock__factory,
  MockStockToken__factory,
  TokenBatcher__factory,
  type TokenBatcher,
} from "../../typechain-types";
import { openProjectToken } from "../replica/project-token";
import type { Replica } from "../replica/types";

const DAY = 86_400;
const HOUR = 3600;
/** Whole USDG in raw units, at the decimals read from the replica's token. */
const USDG = (replica: Replica, dollars: number) => parseUnits(String(dollars), replica.usdgDecimals);
const DUST = STEWARDSHIP_V1.dustWholeTokens * 10n ** 18n;
/** Node accounts no demo agent, creator or keeper uses (see agents.ts). */
const ORGANIC_ACCOUNT = 17;
const WASH_ACCOUNT = 18;
/** Days of token history scripted before the season starts, so the first cycle seals records. */
export const PRE_HISTORY_DAYS = 3;

/** The operator's share of DEMO, vesting over the deploy's schedule (config/deploy.json). */
const OPERATOR_ALLOCATION = 100_000n * DUST;

/** How long the demo's LP position stays locked: a year, far beyond any demo season. */
const LP_LOCK_SECONDS = 365 * DAY;

/**
 * Puts the DEMO pool's position (the newest one the operator minted) in a LiquidityLock for a
 * year, as seed 002 promises for the real pool, so the monitor reads and seals it every day.
 */
async function lockLiquidity(
  replica: Replica,
  operator: HardhatEthersSigner,
): Promise<{ lock: string; position: string }> {
  const manager = replica.positionManager.connect(operator);
  const owned = (await manager.getFunction("balanceOf")(operator.address)) as bigint;
  const position = (await manager.getFunction("tokenOfOwnerByIndex")(operator.address, owned - 1n)) as bigint;
  const unlockAt = (await time.latest()) + LP_LOCK_SECONDS;
  const lock = await new LiquidityLock__factory(operator).deploy(
    await manager.getAddress(),
    operator.address,
    unlockAt,
  );
  await lock.waitForDeployment();
  const address = await lock.getAddress();
  await (
    await manager.getFunction("safeTransferFrom(address,address,uint256)")(
      operator.address,
      address,
      position,
    )
  ).wait();
  return { lock: address.toLowerCase(), position: position.toString() };
}

/**
 * The demo's project token (DEMO, standing in for OAIA) for the stewardship monitor: the token
 * and its USDG pool, a few scripted days of history before the season (holders seeded at the dust
 * line, organic buys, a wallet round-tripping its buys), and a little activity every demo hour,
 * so the /stewardship page shows sealed days, a holder series, volume and (b) evidence.
 */
export class DemoProject {
  private holders = 0;

  private constructor(
    private readonly project: Replica,
    private readonly operator: HardhatEthersSigner,
    private readonly organic: HardhatEthersSigner,
    private readonly wash: HardhatEthersSigner,
    private readonly batcher: TokenBatcher,
    readonly settings: StewardshipSettings,
  ) {}

  /**
   * Deploys the token and its pool; the monitor follows from the block before. The operator
   * allocation (`OPERATOR_ALLOCATION` tokens) is minted to the deploy's OperatorVesting, which
   * the monitor excludes like every operator wallet.
   */
  static async open(
    replica: Replica,
    signers: readonly HardhatEthersSigner[],
    operatorVesting: string,
  ): Promise<DemoProject> {
    const operator = replica.deployer;
    const startBlock = await operator.provider.getBlockNumber();
    const project = await openProjectToken(replica, {
      symbol: "DEMO",
      name: "Demo project token",
      price: "0.000005", // the dust line (1,000,000 tokens) is worth $5, as at OAIA's launch
      fee: 3000,
      liquidityUsdg: USDG(replica, 200_000),
    });
    const stock = project.stocks[0]!;
    const token = MockStockToken__factory.connect(stock.address, operator);
    const batcher = await new TokenBatcher__factory(operator).deploy();
    await batcher.waitForDeployment();
    await (await token.mint(operator.address, 10_000n * DUST)).wait();
    await (await token.mint(operatorVesting, OPERATOR_ALLOCATION)).wait();
    await (await token.approve(await batcher.getAddress(), MaxUint256)).wait();
    const lpLock = await lockLiquidity(replica, operator);
    return new DemoProject(project, operator, signers[ORGANIC_ACCOUNT]!, signers[WASH_ACCOUNT]!, batcher, {
      token: stock.address.toLowerCase(),
      pools: [stock.poolAddress.toLowerCase()],
      usd: (await replica.usdg.getAddress()).toLowerCase(),
      excluded: [operator.address.toLowerCase(), lpLock.lock, operatorVesting.toLowerCase()].sort(),
      startBlock,
      lpLock,
    });
  }

  /** The operator sends `count` new wallets the dust line each (one batch transaction). */
  private async seedHolders(count: number): Promise<void> {
    const wallets = Array.from(
      { length: count },
      (_, i) => `0x${id(`demo holder ${this.holders + i}`).slice(26)}`,
    );
    this.holders += count;
    await (
      await this.batcher.send(
        this.settings.token,
        wallets,
        wallets.map(() => DUST),
      )
    ).wait();
  }

  /** A buy of `dollars` and, for the wash wallet, 90 % of it sold straight back: rule (b). */
  private async roundTrip(dollars: number, at?: number): Promise<void> {
    const stock = this.project.stocks[0]!;
    const bought = await this.project.swap(stock, "buy", USDG(this.project, dollars), {
      from: this.wash,
      ...(at ? { at } : {}),
    });
    await this.project.swap(stock, "sell", (bought.amountOut * 9n) / 10n, {
      from: this.wash,
      ...(at ? { at: at + 600 } : {}),
    });
  }

  /**
   * Scripts PRE_HISTORY_DAYS whole UTC days after the next midnight (the chain clock jumps
   * there): each day 20 new holders, a $600 organic buy and one $150 round trip (the third makes
   * the wash wallet a rule-(b) cluster). The launch day before them is measured too, so the first
   * cycle seals PRE_HISTORY_DAYS + 1 days. Four transactions a day keep `npm start` quick.
   */
  async preHistory(): Promise<void> {
    const stock = this.project.stocks[0]!;
    const first = (Math.floor((await time.latest()) / DAY) + 1) * DAY;
    for (let d = 0; d < PRE_HISTORY_DAYS; d++) {
      const day = first + d * DAY;
      await time.setNextBlockTimestamp(day + HOUR);
      await this.seedHolders(20);
      await this.project.swap(stock, "buy", USDG(this.project, 600), {
        from: this.organic,
        at: day + 3 * HOUR,
      });
      await this.roundTrip(150, day + 5 * HOUR);
    }
    await time.setNextBlockTimestamp(first + PRE_HISTORY_DAYS * DAY + 60);
    await this.operator.provider.send("evm_mine", []);
  }

  /**
   * One demo hour, kept to a transaction or two: every other hour an organic $80 buy, every
   * fourth a new holder, every eighth a $100 round trip (three a day: rule (b) keeps applying).
   * The new holder is the operator's spend: only when `operatorMaySpend` (the mode guard's answer).
   */
  async hour(hour: number, operatorMaySpend: boolean): Promise<void> {
    if (hour % 2 === 0)
      await this.project.swap(this.project.stocks[0]!, "buy", USDG(this.project, 80), { from: this.organic });
    if (hour % 4 === 0 && operatorMaySpend) await this.seedHolders(1);
    if (hour % 8 === 0) await this.roundTrip(100);
  }
}
