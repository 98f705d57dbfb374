import type { ClosesSource, PriceReading } from "../../src/closes/cache";

/**
 * A PriceOracle stand-in: `price(asset, at)` gives the 18-decimal price, undefined for an hour
 * the oracle cannot answer (`PriceOracleWindowNotCovered`, as for a history that starts later:
 * no older hour is asked about). Counts every read.
 */
export class FakeCloses implements ClosesSource {
  readonly chainId = 31337;
  readonly oracle = "0x4444444444444444444444444444444444444444";
  reads = 0;

  constructor(
    private readonly assets: readonly string[],
    private readonly price: (asset: string, at: number) => bigint | undefined,
  ) {}

  async twapWindow(): Promise<number> {
    return 300;
  }

  async pairs(): Promise<readonly string[]> {
    return [...this.assets].sort();
  }

  async priceAt(asset: string, at: number): Promise<PriceReading> {
    this.reads++;
    const price18 = this.price(asset, at);
    return price18 === undefined ? { missing: "PriceOracleWindowNotCovered", earlierToo: true } : { price18 };
  }
}
