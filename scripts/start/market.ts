import { seededRandom } from "@augur/scorer/src/referee/synthetic-input";
import { marketTrade } from "../replica/trades";
import type { Replica, ReplicaStock } from "../replica/types";

/** Fixed seed of the market's trades: two runs of the demo move the stocks alike. */
const MARKET_SEED = 5_113;

/**
 * The rest of the market, on every stock of the replica: once a simulated hour the replica's
 * trader (node account #1) trades each one as the 48 h history did (1,000–40,000 USDG, the side
 * leaning against the drift since the demo began). Without it a stock would move only when the
 * demo agents trading it do — they would read their own trades as the market's, and a trend agent
 * would keep buying the rise it made — and a call on an unmoved stock is void.
 */
export class DemoMarket {
  private readonly random = seededRandom(MARKET_SEED);

  private constructor(
    private readonly replica: Replica,
    private readonly books: ReadonlyArray<{ readonly stock: ReplicaStock; readonly opening: bigint }>,
  ) {}

  static async open(replica: Replica, symbols: readonly string[]): Promise<DemoMarket> {
    const books = [];
    for (const symbol of symbols) {
      const stock = replica.stock(symbol);
      books.push({ stock, opening: await replica.priceUsdgPerShare(stock) });
    }
    return new DemoMarket(replica, books);
  }

  /** This hour's trades, one per stock, each mined in its own block. */
  async hour(): Promise<void> {
    for (const { stock, opening } of this.books) await marketTrade(this.replica, stock, this.random, opening);
  }
}
