import { seededRandom } from "@augur/scorer/src/referee/synthetic-input";
import { marketTrade } from "../replica/trades";
import type { Replica, ReplicaStock } from "../replica/types";

/** Fixed seed of the market's trades: two runs of the demo move the called stock alike. */
const MARKET_SEED = 5_113;

/**
 * The rest of the market on the stock the demo's agents call: once a simulated hour the
 * replica's trader (node account #1) trades it as the 48 h history did (1,000–40,000 USDG, the
 * side leaning against the drift since the demo began). Without it the called stock would move
 * only when the agents that trade it do, and a call on an unmoved stock is void.
 */
export class DemoMarket {
  private readonly random = seededRandom(MARKET_SEED);

  private constructor(
    private readonly replica: Replica,
    private readonly stock: ReplicaStock,
    private readonly opening: bigint,
  ) {}

  static async open(replica: Replica, symbol: string): Promise<DemoMarket> {
    const stock = replica.stock(symbol);
    return new DemoMarket(replica, stock, await replica.priceUsdgPerShare(stock));
  }

  /** This hour's trade, mined in the next block. */
  async hour(): Promise<void> {
    await marketTrade(this.replica, this.stock, this.random, this.opening);
  }
}
