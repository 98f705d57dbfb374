import type { PriceReading } from "../../src/closes/cache";
import type { MeasureChain, PinnedBlock, TransferLog } from "../../src/measure/chain";
import type { Listing, MeasureSource } from "../../src/measure/hour";

/**
 * A chain in memory for measuring tests: blocks with timestamps, balances that change at a block,
 * Transfer logs, prices per (token, time). Balances are derived from the transfers, like a token's.
 */
export class FakeChain implements MeasureChain, MeasureSource {
  readonly blocks: PinnedBlock[] = [];
  readonly logs: TransferLog[] = [];
  readonly prices = new Map<string, bigint>();
  readonly reads: Array<{ block: number; calls: number }> = [];
  readonly logQueries: Array<{ after: number; through: number }> = [];
  /** Sell quotes by token: USDG base units a whole balance would fetch (none: no quoter). */
  readonly quotes = new Map<string, (amount: bigint) => bigint>();

  constructor(
    readonly listed: Listing,
    readonly tokenDecimals: Readonly<Record<string, number>>,
  ) {}

  /** Mines a block at `timestamp` holding `transfers`. */
  mine(
    timestamp: number,
    transfers: ReadonlyArray<Omit<TransferLog, "blockNumber" | "txHash" | "logIndex">> = [],
  ) {
    const number = this.blocks.length;
    this.blocks.push({ number, hash: `0x${number.toString(16).padStart(64, "0")}`, timestamp });
    transfers.forEach((t, i) =>
      this.logs.push({
        ...t,
        blockNumber: number,
        txHash: `0x${"ab".repeat(31)}${number.toString(16).padStart(2, "0")}`,
        logIndex: i,
      }),
    );
  }

  setPrice(token: string, at: number, price: bigint) {
    this.prices.set(`${token}|${at}`, price);
  }

  balanceAt(block: number, wallet: string, token: string): bigint {
    let balance = 0n;
    for (const l of this.logs) {
      if (l.blockNumber > block || l.token !== token) continue;
      if (l.to === wallet) balance += l.amount;
      if (l.from === wallet) balance -= l.amount;
    }
    return balance;
  }

  async blockAt(at: number): Promise<PinnedBlock> {
    const b = [...this.blocks].reverse().find((x) => x.timestamp <= at);
    if (!b) throw new RangeError(`no block at or before ${at}`);
    return b;
  }

  async block(n: number): Promise<PinnedBlock> {
    return this.blocks[n]!;
  }

  async readBalances(block: number, wallets: readonly string[], tokens: readonly string[]) {
    this.reads.push({ block, calls: wallets.length * tokens.length });
    return wallets.map((w) => tokens.map((t) => this.balanceAt(block, w, t)));
  }

  async transfers(tokens: readonly string[], wallets: readonly string[], after: number, through: number) {
    return this.logs.filter(
      (l) =>
        l.blockNumber > after &&
        l.blockNumber <= through &&
        tokens.includes(l.token) &&
        (wallets.includes(l.from) || wallets.includes(l.to)),
    );
  }

  async tokenTransfers(tokens: readonly string[], after: number, through: number) {
    this.logQueries.push({ after, through });
    return this.logs.filter(
      (l) => l.blockNumber > after && l.blockNumber <= through && tokens.includes(l.token),
    );
  }

  async sellQuote(_block: number, _pool: string, token: string, _usdg: string, amount: bigint) {
    return this.quotes.get(token)?.(amount);
  }

  async decimals(token: string) {
    return this.tokenDecimals[token]!;
  }

  async listing() {
    return this.listed;
  }

  async priceAt(asset: string, at: number): Promise<PriceReading> {
    const p = this.prices.get(`${asset}|${at}`);
    return p === undefined ? { missing: "PriceOracleNoSource", earlierToo: true } : { price18: p };
  }
}
