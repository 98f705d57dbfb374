import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, mine, time } from "@nomicfoundation/hardhat-network-helpers";
import { formatUnits } from "ethers";
import {
  anchorStep,
  buildApp,
  eip1271Check,
  measureHour,
  measureStep,
  MULTICALL3,
  readCarried,
  RpcMeasureChain,
  runCycle,
  type CarriedState,
} from "@augur/engine";
import { registration, sign, testWallet } from "@augur/engine/test-support";
import {
  augurDomain,
  snapshotPoint,
  typedDataTypes,
  type MeasuredSnapshotBody,
  type MeasuredTradeBody,
} from "@augur/records";
import type { PriceOracle } from "../typechain-types";
import { measuredReplica, measuredSeasonStore, sourceOf, WINDOW, withOracle } from "./shared/measured";
import { buildReplica, type Replica } from "./shared/replica";

/**
 * Snapshots measured from the chain (issue #16) on the replica's real Uniswap v3 pools: a wallet
 * trades, receives a deposit and is withdrawn from; every measured snapshot equals an independent
 * computation from `balanceOf` and `priceAt` at the pinned block, and flows are no return.
 */
const HOUR = 3600;

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

/** NAV and stock value at `at`, computed the long way: balanceOf at the pinned block × priceAt(at), raw units. */
async function independentNav(
  replica: Replica,
  oracle: PriceOracle,
  wallet: string,
  at: number,
): Promise<{ block: number; cash: bigint; stockValue: bigint }> {
  const block = await lastBlockAtOrBefore(at);
  const cash = await replica.usdg.balanceOf(wallet, { blockTag: block });
  let stockValue = 0n;
  for (const s of replica.stocks) {
    const balance = await s.token.balanceOf(wallet, { blockTag: block });
    if (balance === 0n) continue;
    const price = await oracle.priceAt(s.address, at);
    stockValue += (balance * price) / 10n ** BigInt(s.decimals + 18 - replica.usdgDecimals);
  }
  return { block, cash, stockValue };
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
      const { cash, stockValue } = await independentNav(replica, oracle, W, at);
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

  it("a split and a reverse split inside the season: raw-unit snapshots, NAV, trade prices and return run straight through", async () => {
    const { replica, oracle } = await loadFixture(measuredReplica);
    const wallet = (await ethers.getSigners())[11]!;
    const W = wallet.address.toLowerCase();
    const stock = replica.stocks[0]!;
    const ONE = 10n ** 18n;
    await replica.fund(W, "USDG", 10_000n * 10n ** 6n);
    const T0 = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR;
    // The issuer's ERC-8056 schedule: 2-for-1 in the middle of hour 1, back 1-for-2 in the middle of hour 2.
    const schedule = async (multiplier: bigint, at: number) =>
      (await stock.token.connect(replica.deployer).setUIMultiplier(multiplier, at)).wait();
    await schedule(2n * ONE, T0 + 1800);
    // Hour 1: a buy before the split and one after it; hour 2: no trade, the reverse split.
    const spotBefore: bigint[] = [];
    spotBefore.push(await replica.priceUsdgPerShare(stock));
    await replica.swap(stock, "buy", 500n * 10n ** 6n, { from: wallet, at: T0 + 600 });
    spotBefore.push(await replica.priceUsdgPerShare(stock));
    await replica.swap(stock, "buy", 500n * 10n ** 6n, { from: wallet, at: T0 + 2400 });
    await time.increaseTo(T0 + HOUR + 60);
    await schedule(ONE, T0 + HOUR + 1800);
    await time.increaseTo(T0 + HOUR + 2400);
    await mine(1); // a block after the reverse split: hour 2's pinned block shows it
    await time.increaseTo(T0 + 2 * HOUR + 60);
    await mine(1);

    const chain = new RpcMeasureChain(ethers.provider);
    const snaps: MeasuredSnapshotBody[] = [];
    const trades: MeasuredTradeBody[] = [];
    let carriedState: CarriedState | undefined;
    for (const at of [T0, T0 + HOUR, T0 + 2 * HOUR]) {
      const { records, skipped } = await measureHour(
        chain,
        sourceOf(replica, oracle),
        "s1",
        [{ agentId: "split", wallet: W }],
        at,
      );
      expect(skipped).to.deep.equal([]);
      // Carried from Transfer logs across the split (it moves no raw balance), the same records.
      const prior = carriedState;
      const carried = await measureHour(
        chain,
        sourceOf(replica, oracle),
        "s1",
        [{ agentId: "split", wallet: W }],
        at,
        {
          balances: async (block, wallets, tokens) => {
            const read = await readCarried(chain, prior, block, at, wallets, tokens);
            carriedState = read.state;
            return read;
          },
        },
      );
      expect(carried.records, `carried at ${at}`).to.deep.equal(records);
      const snap = records.find((r) => r.kind === "snapshot")!.body as MeasuredSnapshotBody;
      trades.push(...records.filter((r) => r.kind === "trade").map((r) => r.body as MeasuredTradeBody));
      const independent = await independentNav(replica, oracle, W, at);
      expect(snap.block.number).to.equal(independent.block);
      expect(BigInt(snap.nav), `nav at ${at}`).to.equal(independent.cash + independent.stockValue);
      expect(BigInt(snap.stockValue)).to.equal(independent.stockValue);
      snaps.push(snap);
    }
    // The splits happened: at the hour-1 block a raw token shows as two, at the hour-2 block as one again.
    const shown = (at: number) => stock.token.uiMultiplier({ blockTag: snaps[at]!.block.number });
    expect([await shown(0), await shown(1), await shown(2)]).to.deep.equal([ONE, 2n * ONE, ONE]);
    // Raw balances and prices carry no multiplier: the quiet hour's NAV is the same to the unit and
    // its return is exactly 0, though the shares shown halved inside it.
    expect(snaps[2]!.holdings).to.deep.equal(snaps[1]!.holdings);
    expect(snaps[2]!.nav).to.equal(snaps[1]!.nav);
    expect(snaps[2]!.flow).to.equal("0");
    // Each trade's price sits at the pool's raw spot price before it, the one after the split too
    // (a per-shown-share price would have halved), within the fee and the trade's own impact.
    expect(trades.map((t) => t.side)).to.deep.equal(["buy", "buy"]);
    for (const [i, t] of trades.entries()) {
      const spot = spotBefore[i]!;
      expect(BigInt(t.price), `trade ${i} against spot ${spot}`).to.be.within(spot, (spot * 1020n) / 1000n);
    }
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

  it("a pair of one creator's agents pumping one pool gain nothing: each is marked at its pro-rata share of selling both together", async () => {
    const { replica, oracle, quoter } = await loadFixture(measuredReplica);
    const signers = await ethers.getSigners();
    const [first, second, patient] = [signers[10]!, signers[11]!, signers[12]!];
    const stock = replica.stocks[0]!;
    const stake = 500_000n * 10n ** 6n;
    for (const s of [first, second, patient]) await replica.fund(s.address, "USDG", stake);
    const T = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR + HOUR;
    // The patient holder buys first, at the unpumped price; then the pair push the pool up in turn,
    // each buy marking the other's position higher, well before the TWAP window ending at T.
    await replica.swap(stock, "buy", stake / 10n, { from: patient, at: T - 5 * WINDOW });
    await replica.swap(stock, "buy", stake, { from: first, at: T - 4 * WINDOW });
    await replica.swap(stock, "buy", stake, { from: second, at: T - 3 * WINDOW });
    await time.increaseTo(T + 30);
    await mine(1);
    const agents = [first, second, patient].map((s, i) => ({
      agentId: ["first", "second", "patient"][i]!,
      wallet: s.address.toLowerCase(),
    }));
    const measure = async (wallets: typeof agents) => {
      const chain = new RpcMeasureChain(ethers.provider, quoter);
      const { records } = await measureHour(chain, sourceOf(replica, oracle), "s1", wallets, T);
      return records.filter((r) => r.kind === "snapshot").map((r) => r.body as MeasuredSnapshotBody);
    };
    const together = await measure(agents);
    const held = together.map((b) => b.holdings.find((h) => h.token === stock.address.toLowerCase())!);
    const total = held.reduce((sum, h) => sum + BigInt(h.balance), 0n);
    // The aggregate quote, asked of QuoterV2 directly: one sale of all three positions.
    const pinned = together[0]!.block.number;
    const quote = await new RpcMeasureChain(ethers.provider, quoter).sellQuote(
      pinned,
      stock.poolAddress.toLowerCase(),
      stock.address.toLowerCase(),
      (await replica.usdg.getAddress()).toLowerCase(),
      total,
    );
    for (const h of held) {
      expect(h.pooled).to.deep.equal({ balance: String(total), sellQuote: String(quote) });
      expect(BigInt(h.value), "the pro-rata share, rounded down").to.equal(
        (quote! * BigInt(h.balance)) / total,
      );
      expect(BigInt(h.value), "below its own lone quote").to.be.lessThan(BigInt(h.sellQuote!));
    }
    expect(held.reduce((sum, h) => sum + BigInt(h.value), 0n)).to.be.at.most(quote!);
    // The pair end with less than they paid; each share of theirs is marked as the patient holder's.
    const pairNav = BigInt(together[0]!.nav) + BigInt(together[1]!.nav);
    expect(pairNav, "no gain from pumping").to.be.lessThan(2n * stake);
    const perShare = (h: (typeof held)[number]) => (BigInt(h.value) * 10n ** 18n) / BigInt(h.balance);
    expect(perShare(held[0]!)).to.be.closeTo(perShare(held[2]!), 1n);
    // Under the lone-quote rule each was marked as if only it sold, the other's pump counted in full.
    const lone = await measure([agents[0]!]);
    const alone = lone[0]!.holdings.find((h) => h.token === stock.address.toLowerCase())!;
    expect(alone.pooled, "a lone holder's pool is its own").to.deep.equal({
      balance: alone.balance,
      sellQuote: alone.sellQuote,
    });
    expect(alone.value, "a lone holder's mark is its own quote, as before").to.equal(alone.sellQuote);
    expect(BigInt(alone.value)).to.be.greaterThan(BigInt(held[0]!.value));
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

  it("a contract wallet (EIP-1271) is registered through the API and measured like an EOA", async () => {
    const { replica, oracle } = await loadFixture(measuredReplica);
    const owner = (await ethers.getSigners())[12]!;
    const contract = await (await ethers.getContractFactory("MockContractWallet")).deploy(owner.address);
    const W = (await contract.getAddress()).toLowerCase();
    const stock = replica.stocks[0]!;
    // Every set-up transaction (registration, funding, approval) lands inside hour 0, before T0.
    const T0 = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR + HOUR;
    await time.increaseTo(T0 - 1800);
    const store = await measuredSeasonStore(T0);
    let now = await time.latest();
    const chainId = Number((await ethers.provider.getNetwork()).chainId);
    // What `augur serve --rpc` builds: the EIP-1271 question asked of the chain.
    const app = await buildApp({
      store,
      chainId,
      now: () => now,
      contractWallets: eip1271Check(ethers.provider),
    });
    try {
      const agent = testWallet("contract-wallet agent");
      const creator = testWallet("contract-wallet creator");
      const message = { ...registration("vault", agent, creator), registeredAt: now, wallet: W };
      const signed = await sign("RegistrationV2", message, agent, creator);
      const register = (walletSignature: string) =>
        app.inject({
          method: "POST",
          url: "/api/v1/records",
          headers: { "content-type": "application/json" },
          payload: JSON.stringify({ ...signed, walletSignature }),
        });
      const types = typedDataTypes("RegistrationV2");
      // A key that is not the wallet's owner: the contract says no, nothing is stored.
      const stranger = await (
        await ethers.getSigners()
      )[13]!.signTypedData(augurDomain(chainId), types, message);
      const refused = await register(stranger);
      expect(refused.statusCode, refused.body).to.equal(403);
      expect(refused.json().error.code).to.equal("WALLET_NOT_PROVEN");
      const accepted = await register(await owner.signTypedData(augurDomain(chainId), types, message));
      expect(accepted.statusCode, accepted.body).to.equal(201);
      const row = await store.db
        .selectFrom("agents")
        .selectAll()
        .where("id", "=", "vault")
        .executeTakeFirstOrThrow();
      expect(row).to.include({ wallet: W, wallet_proof: "eip1271" });

      // The wallet holds USDG and swaps through the router, its owner sending the calls.
      await replica.fund(W, "USDG", 10_000n * 10n ** 6n);
      const router = await replica.router.getAddress();
      await contract
        .connect(owner)
        .execute(
          await replica.usdg.getAddress(),
          replica.usdg.interface.encodeFunctionData("approve", [router, ethers.MaxUint256]),
        );
      await time.setNextBlockTimestamp(T0 + 600);
      const swap = await (
        await contract.connect(owner).execute(
          router,
          replica.router.interface.encodeFunctionData("exactInputSingle", [
            {
              tokenIn: await replica.usdg.getAddress(),
              tokenOut: stock.address,
              fee: stock.fee,
              recipient: W,
              deadline: ethers.MaxUint256,
              amountIn: 2_000n * 10n ** 6n,
              amountOutMinimum: 0n,
              sqrtPriceLimitX96: 0n,
            },
          ]),
          { gasLimit: 1_000_000 },
        )
      ).wait();
      await time.increaseTo(T0 + HOUR + 60);
      await mine(1);
      now = T0 + HOUR + 60;

      // The cycle's measure step, as for any bound wallet: both boundaries, the swap as a trade.
      const report = await runCycle({
        store,
        steps: [measureStep(new RpcMeasureChain(ethers.provider), sourceOf(replica, oracle)), anchorStep()],
        now: () => now,
        progress: () => {},
      });
      expect(report.measured).to.equal(3);
      const inputs = async (kind: string) => {
        const res = await app.inject({
          method: "GET",
          url: `/api/v1/agents/vault/inputs?season_id=s1&kind=${kind}`,
        });
        expect(res.statusCode, res.body).to.equal(200);
        return res.json<{ inputs: Array<{ body: string }> }>().inputs.map((i) => JSON.parse(i.body));
      };
      const snaps = (await inputs("snapshot")) as MeasuredSnapshotBody[];
      expect(snaps.map((s) => [s.takenAt, s.wallet])).to.deep.equal([
        [T0, W],
        [T0 + HOUR, W],
      ]);
      for (const s of snaps) {
        const independent = await independentNav(replica, oracle, W, s.takenAt);
        expect(s.block.number).to.equal(independent.block);
        expect(BigInt(s.nav)).to.equal(independent.cash + independent.stockValue);
      }
      expect(snaps[0]!.flow, "the funding is a deposit").to.equal(String(10_000n * 10n ** 6n));
      expect(snaps[1]!.flow, "the swap is a trade").to.equal("0");
      const [trade] = (await inputs("trade")) as MeasuredTradeBody[];
      expect(trade).to.deep.include({
        wallet: W,
        side: "buy",
        asset: stock.address.toLowerCase(),
        usdgAmount: String(2_000n * 10n ** 6n),
        txHash: swap!.hash.toLowerCase(),
        executedAt: T0 + 600,
      });
    } finally {
      await app.close();
      await store.close();
    }
  });
});
