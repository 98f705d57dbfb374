import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, mine, time } from "@nomicfoundation/hardhat-network-helpers";
import { formatUnits } from "ethers";
import { MULTICALL3, measureHour, RpcMeasureChain } from "@augur/engine";
import { snapshotPoint, type MeasuredSnapshotBody, type MeasuredTradeBody } from "@augur/records";
import { sourceOf, WINDOW, withOracle } from "./shared/measured";
import { buildReplica, deployReplica } from "./shared/replica";

/**
 * Snapshots measured from the chain (issue #16) on the replica's real Uniswap v3 pools: a wallet
 * trades, receives a deposit and is withdrawn from; every measured snapshot equals an independent
 * computation from `balanceOf` and `priceAt` at the pinned block, and flows are no return.
 */
const HOUR = 3600;

async function measuredReplica() {
  return withOracle(await deployReplica());
}

/** A local replica whose USDG has 18 decimals (deployments disagree: 6 or 18). */
async function measuredReplica18() {
  return withOracle(await buildReplica({ usdgDecimals: 18, hours: 2 }));
}

/** The pinned rule, computed the long way: walk back from the head to the last block with timestamp ≤ at. */
async function lastBlockAtOrBefore(at: number): Promise<number> {
  let n = await ethers.provider.getBlockNumber();
  while ((await ethers.provider.getBlock(n))!.timestamp > at) n--;
  return n;
}

describe("measured snapshots on the replica", () => {
  it("trade, deposit and withdrawal: each hour equals balanceOf × priceAt at the pinned block; flows are no return", async () => {
    const { replica, oracle } = await loadFixture(measuredReplica);
    const signers = await ethers.getSigners();
    const [wallet, friend, elsewhere] = [signers[7]!, signers[8]!, signers[9]!];
    const W = wallet.address.toLowerCase();
    const tokens = replica.stocks.map((s) => s.address.toLowerCase());
    const source = sourceOf(replica, oracle);
    const chain = new RpcMeasureChain(ethers.provider);
    const stock = replica.stocks[0]!;

    await replica.fund(W, "USDG", 10_000n * 10n ** 6n);
    await replica.fund(friend.address, "USDG", 1_000n * 10n ** 6n);
    const T0 = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR;
    await time.increaseTo(T0 + 5);
    // hour 1: buy from the pool (a trade); hour 2: a deposit of 500 and a withdrawal of 100 (flows)
    const swap = await replica.swap(stock, "buy", 2_000n * 10n ** 6n, { from: wallet, at: T0 + 900 });
    await time.increaseTo(T0 + HOUR + 300);
    await (await replica.usdg.connect(friend).transfer(W, 500n * 10n ** 6n)).wait();
    await (await replica.usdg.connect(wallet).transfer(elsewhere.address, 100n * 10n ** 6n)).wait();
    await time.increaseTo(T0 + 2 * HOUR + 60);
    await mine(1);

    const measured: MeasuredSnapshotBody[] = [];
    const trades: MeasuredTradeBody[] = [];
    for (const at of [T0, T0 + HOUR, T0 + 2 * HOUR]) {
      const { records, skipped } = await measureHour(
        chain,
        source,
        "s1",
        [{ agentId: "alpha", wallet: W }],
        at,
      );
      expect(skipped).to.deep.equal([]);
      const body = records.find((r) => r.kind === "snapshot")!.body as MeasuredSnapshotBody;
      trades.push(...records.filter((r) => r.kind === "trade").map((r) => r.body as MeasuredTradeBody));
      measured.push(body);
      // Independently: the block, the balances there, the oracle's price at the boundary.
      const blockNumber = await lastBlockAtOrBefore(at);
      expect(body.block.number).to.equal(blockNumber);
      expect(body.usdgDecimals, "USDG's decimals as the token states them").to.equal(
        Number(await replica.usdg.decimals()),
      );
      expect(body.block.hash).to.equal((await ethers.provider.getBlock(blockNumber))!.hash!.toLowerCase());
      const cash = await replica.usdg.balanceOf(W, { blockTag: blockNumber });
      let stockValue = 0n;
      for (const s of replica.stocks) {
        const balance = await s.token.balanceOf(W, { blockTag: blockNumber });
        if (balance === 0n) continue;
        const price = await oracle.priceAt(s.address, at);
        stockValue += (balance * price) / 10n ** BigInt(s.decimals + 12);
      }
      expect(BigInt(body.nav), `nav at ${at}`).to.equal(cash + stockValue);
      expect(BigInt(body.stockValue)).to.equal(stockValue);
      expect(body.investedBps).to.equal(Number((stockValue * 10_000n) / (cash + stockValue)));
    }
    expect(tokens).to.include(measured[1]!.holdings[0]!.token);
    expect(measured[1]!.flow, "a swap with a listed pool is a trade, not a flow").to.equal("0");
    expect(measured[1]!.investedBps).to.be.greaterThan(0);
    expect(measured[2]!.flow).to.equal(String(400n * 10n ** 6n));
    expect(measured[2]!.transfers.map((t) => t.counterparty)).to.deep.equal([
      friend.address.toLowerCase(),
      elsewhere.address.toLowerCase(),
    ]);
    // The swap is the one measured trade: its legs as the pool moved them, at its block's time.
    expect(trades).to.have.length(1);
    expect(trades[0]).to.deep.include({
      asset: stock.address.toLowerCase(),
      pool: stock.poolAddress.toLowerCase(),
      side: "buy",
      quantity: swap.amountOut.toString(),
      usdgAmount: swap.amountIn.toString(),
      executedAt: T0 + 900,
    });
    expect(BigInt(trades[0]!.price)).to.equal(
      (swap.amountIn * 10n ** BigInt(stock.decimals + 12)) / swap.amountOut,
    );
    // Return of hour 2 is the stock's move alone: the deposit and the withdrawal do not count.
    const nav = measured.map((m) => BigInt(m.nav));
    const stockMove = BigInt(measured[2]!.stockValue) - BigInt(measured[1]!.stockValue);
    expect(nav[2]! - BigInt(measured[2]!.flow) - nav[1]!).to.equal(stockMove);
  });

  it("an 18-decimal USDG: the sealed amounts are its own base units, read as the same USDG", async () => {
    const { replica, oracle } = await loadFixture(measuredReplica18);
    const wallet = (await ethers.getSigners())[7]!;
    const W = wallet.address.toLowerCase();
    const unit = 10n ** 18n;
    await replica.fund(W, "USDG", 10_000n * unit);
    const stock = replica.stocks[0]!;
    const T0 = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR;
    await time.increaseTo(T0 + 5);
    await replica.swap(stock, "buy", 2_000n * unit, { from: wallet, at: T0 + 900 });
    await time.increaseTo(T0 + HOUR + 60);
    await mine(1);
    const { records } = await measureHour(
      new RpcMeasureChain(ethers.provider),
      sourceOf(replica, oracle),
      "s1",
      [{ agentId: "alpha", wallet: W }],
      T0 + HOUR,
    );
    const body = records.find((r) => r.kind === "snapshot")!.body as MeasuredSnapshotBody;
    const trade = records.find((r) => r.kind === "trade")!.body as MeasuredTradeBody;
    expect(body.usdgDecimals).to.equal(18);
    expect(trade.usdgDecimals).to.equal(18);
    const blockTag = body.block.number;
    const cash = await replica.usdg.balanceOf(W, { blockTag });
    const shares = await stock.token.balanceOf(W, { blockTag });
    const price = await oracle.priceAt(stock.address, T0 + HOUR);
    const stockValue = (shares * price) / 10n ** BigInt(stock.decimals);
    expect(BigInt(body.nav)).to.equal(cash + stockValue);
    expect(cash).to.equal(8_000n * unit);
    // Read in USDG, exactly: the wei-precise NAV as its decimal string's nearest double.
    const point = snapshotPoint(JSON.stringify(body), "0x");
    expect(point.nav).to.equal(Number(formatUnits(cash + stockValue, 18)));
    expect(point.nav).to.be.within(9_900, 10_100); // 8,000 cash and about 2,000 of stock
    expect(BigInt(trade.price)).to.equal(
      (BigInt(trade.usdgAmount) * 10n ** BigInt(stock.decimals)) / BigInt(trade.quantity),
    );
  });

  it("a self-pumping agent gains nothing: its stock is marked no higher than selling it back would fetch", async () => {
    const { replica, oracle, quoter } = await loadFixture(measuredReplica);
    const pumper = (await ethers.getSigners())[10]!;
    const P = pumper.address.toLowerCase();
    const stock = replica.stocks[0]!;
    const stake = 1_000_000n * 10n ** 6n;
    await replica.fund(P, "USDG", stake);
    const T = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR + HOUR;
    // Pumps the pool well before the TWAP window ending at T, so the oracle's price at T is its own.
    await replica.swap(stock, "buy", stake, { from: pumper, at: T - 3 * WINDOW });
    await time.increaseTo(T + 30);
    await mine(1);
    const wallets = [{ agentId: "pumper", wallet: P }];
    const measure = async (q?: string) => {
      const { records } = await measureHour(
        new RpcMeasureChain(ethers.provider, q),
        sourceOf(replica, oracle),
        "s1",
        wallets,
        T,
      );
      return records.find((r) => r.kind === "snapshot")!.body as MeasuredSnapshotBody;
    };
    const atOracle = await measure();
    const marked = await measure(quoter);
    // At its own TWAP the pump looks like a gain; what it could sell for is less than it paid.
    expect(BigInt(atOracle.nav), "oracle mark rewards the pump").to.be.greaterThan(stake);
    expect(BigInt(marked.nav), "sell-quote mark: no gain").to.be.lessThan(stake);
    const h = marked.holdings[0]!;
    expect(h.value).to.equal(h.sellQuote);
    expect(BigInt(h.sellQuote!)).to.be.lessThan(BigInt(atOracle.holdings[0]!.value));
  });

  it("reads balances through Multicall3's aggregate3 exactly as one eth_call each", async () => {
    const { replica } = await loadFixture(measuredReplica);
    const probe = await (await ethers.getContractFactory("ReplicaMulticall3")).deploy();
    await ethers.provider.send("hardhat_setCode", [
      MULTICALL3,
      await ethers.provider.getCode(await probe.getAddress()),
    ]);
    await mine(1); // state set by hardhat_setCode shows from the next block
    const signers = await ethers.getSigners();
    const wallets = [
      ...signers.slice(0, 6).map((s) => s.address),
      ...Array.from({ length: 600 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`),
    ];
    const tokens = [await replica.usdg.getAddress(), ...replica.stocks.map((s) => s.address)];
    await replica.fund(wallets[600]!, replica.stocks[1]!, 7n);
    const block = await ethers.provider.getBlockNumber();
    const batched = await new RpcMeasureChain(ethers.provider, undefined, MULTICALL3).readBalances(
      block,
      wallets,
      tokens,
    );
    const single = await new RpcMeasureChain(ethers.provider).readBalances(block, wallets, tokens);
    expect(batched).to.deep.equal(single);
    expect(batched[600]![2]).to.equal(7n);
    expect(batched.flat().filter((b) => b > 0n).length).to.be.greaterThan(1);
  });
});
