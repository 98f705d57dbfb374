import { Contract, getAddress, isCallException, type JsonRpcProvider, ZeroAddress } from "ethers";
import { PRICE_ORACLE_ABI, priceOracle } from "../chain/abi/price-oracle";
import type { ClosesSource, PriceReading } from "./cache";
import type { Listing, MeasureSource } from "../measure/hour";

/**
 * The reverts that mean "no price for that hour", not "the node or the call is broken"; true
 * where no earlier hour can have one either (no source at all, or history that starts later).
 */
const NO_PRICE = new Map([
  ["PriceOracleNoSource", true],
  ["PriceOracleWindowNotCovered", true],
  ["PriceOracleObserveFailed", false],
  ["PriceOracleFutureTimestamp", false],
  ["PriceOracleStalePrice", false],
]);

const CONFIG_TOPICS = ["PoolSet", "UpdaterSet"].map((n) => priceOracle.getEvent(n)!.topicHash);

/**
 * The PriceOracle as a source of hourly closes. Its priced assets are learnt from its own
 * configuration events (PoolSet, UpdaterSet), read forward from `startBlock` and remembered
 * between cycles: an asset is priced once it has a pool (a pool, once set, stays: seed 001) or
 * while it has an updater. A reorganised
 * configuration event can at worst add an asset the oracle then refuses (`PriceOracleNoSource`),
 * which is recorded as a missed hour, never as a close.
 */
export class OracleCloses implements ClosesSource, MeasureSource {
  readonly oracle: string;
  private readonly contract: Contract;
  private scannedThrough: number;
  private readonly pools = new Map<string, string>();
  private readonly updaters = new Map<string, string>();
  private window: number | undefined;
  private usdg: string | undefined;

  constructor(
    private readonly provider: JsonRpcProvider,
    oracle: string,
    readonly chainId: number,
    startBlock = 0,
    private readonly batchBlocks = 2000,
  ) {
    this.oracle = getAddress(oracle).toLowerCase();
    this.contract = new Contract(this.oracle, PRICE_ORACLE_ABI, provider);
    this.scannedThrough = startBlock - 1;
  }

  async twapWindow(): Promise<number> {
    this.window ??= Number(await this.contract.getFunction("twapWindow").staticCall());
    return this.window;
  }

  async pairs(): Promise<readonly string[]> {
    const latest = Number(await this.provider.send("eth_blockNumber", []));
    while (this.scannedThrough < latest) {
      const to = Math.min(latest, this.scannedThrough + this.batchBlocks);
      const logs = await this.provider.getLogs({
        address: this.oracle,
        topics: [CONFIG_TOPICS],
        fromBlock: this.scannedThrough + 1,
        toBlock: to,
      });
      for (const entry of logs) {
        const parsed = priceOracle.parseLog(entry);
        if (!parsed) continue;
        const asset = (parsed.args.getValue("asset") as string).toLowerCase();
        if (parsed.name === "PoolSet") this.pools.set(asset, parsed.args.getValue("pool") as string);
        else this.updaters.set(asset, parsed.args.getValue("updater") as string);
      }
      this.scannedThrough = to;
    }
    const priced = new Set(this.pools.keys());
    for (const [asset, updater] of this.updaters) if (updater !== ZeroAddress) priced.add(asset);
    return [...priced].sort();
  }

  /** USDG and every stock with a pool (what measuring values, and whose pools make trades not flows). */
  async listing(): Promise<Listing> {
    this.usdg ??= ((await this.contract.getFunction("usdg").staticCall()) as string).toLowerCase();
    await this.pairs();
    const stocks = [...this.pools].map(([token, pool]) => ({ token, pool: pool.toLowerCase() }));
    return { usdg: this.usdg, stocks: stocks.sort((a, b) => (a.token < b.token ? -1 : 1)) };
  }

  async priceAt(asset: string, at: number): Promise<PriceReading> {
    return oraclePriceAt(this.contract, asset, at);
  }
}

/**
 * `priceAt(asset, at)` of a PriceOracle contract: the price, or `missing` with the oracle's
 * "no price" error; any other failure (the node, a broken call) is thrown.
 */
export async function oraclePriceAt(oracle: Contract, asset: string, at: number): Promise<PriceReading> {
  try {
    const price18 = (await oracle.getFunction("priceAt").staticCall(asset, at)) as bigint;
    return { price18 };
  } catch (error) {
    const name = isCallException(error) ? error.revert?.name : undefined;
    if (name && NO_PRICE.has(name)) return { missing: name, earlierToo: NO_PRICE.get(name)! };
    throw error;
  }
}
