import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { announceReplicaMode, replicaOnce, type Replica, type ReplicaStock } from "./shared/replica";
import {
  DAY,
  Direction,
  GAS_TARGET,
  HOUR,
  MIN_STAKE,
  ONE,
  Outcome,
  USDG,
  commitCall,
  makeCall,
  measureGas,
  revealCall,
  withinTarget,
} from "./shared/callLedger";

// The ledger on Robinhood Chain's trading surface: the replica's Uniswap v3 pools (USDG 6
// decimals against 18-decimal stock tokens, in both token orders) read by the real PriceOracle
// over its 300-second TWAP, and an asset with no pool priced by its updater's pushes.
const TWAP_WINDOW = 300;
/** An asset with no pool, priced by pushes (any address: the oracle never calls it). */
const PUSHED_ASSET = ethers.getAddress("0x00000000000000000000000000000000000b0b01");
const PUSHED_PRICE = 50n * ONE;

async function ledgerOnReplica() {
  const replica = await replicaOnce();
  const signers = await ethers.getSigners();
  // #0 deploys the replica and owns everything here, #1 is the replica's trader.
  const admin = signers[0]!;
  const agents = signers.slice(2, 6);
  const updater = signers[6]!;
  const usdg = await replica.usdg.getAddress();
  const oracle = await ethers.deployContract("PriceOracle", [usdg, TWAP_WINDOW, admin.address]);
  for (const stock of replica.stocks) await oracle.connect(admin).setPool(stock.address, stock.poolAddress);
  await oracle.connect(admin).setUpdater(PUSHED_ASSET, updater.address);
  await oracle.connect(updater).pushPrice(PUSHED_ASSET, PUSHED_PRICE);
  const ledger = await ethers.deployContract("CallLedger", [
    usdg,
    await oracle.getAddress(),
    MIN_STAKE,
    admin.address,
  ]);
  await ledger.connect(admin).setWindow(HOUR, true);
  await ledger.connect(admin).setWindow(DAY, true);
  for (const agent of agents) {
    await replica.fund(agent.address, "USDG", 1000n * USDG);
    await replica.usdg.connect(agent).approve(await ledger.getAddress(), ethers.MaxUint256);
    await ledger.connect(agent).deposit(1000n * USDG);
  }
  return { replica, oracle, ledger, admin, agents, updater };
}

/** Moves `stock`'s price by trading 300,000 USDG's worth: up ("buy") or down ("sell"). */
async function move(replica: Replica, stock: ReplicaStock, up: boolean, at: number) {
  const spot = await replica.priceUsdgPerShare(stock);
  const usdgIn = 300_000n * USDG;
  const sharesIn = (usdgIn * 10n ** 12n * ONE) / spot; // the same value in 18-decimal shares
  await replica.swap(stock, up ? "buy" : "sell", up ? usdgIn : sharesIn, { at });
}

describe("CallLedger on the replica with the PriceOracle", () => {
  before(() => announceReplicaMode());

  it("has pools in both token orders", async () => {
    const { replica } = await loadFixture(ledgerOnReplica);
    const orders = replica.stocks.map((s) => s.usdgIsToken0);
    expect(orders).to.include(true);
    expect(orders).to.include(false);
  });

  it("settles hits and misses from the pools' TWAP, in both token orders", async () => {
    const { replica, oracle, ledger, agents } = await loadFixture(ledgerOnReplica);
    for (const [i, stock] of replica.stocks.entries()) {
      // Buy where USDG is token0, sell where it is token1: both orders, both price moves.
      const up = stock.usdgIsToken0;
      const upCall = makeCall({ asset: stock.address, direction: Direction.Up }, 100 + i);
      const downCall = makeCall({ asset: stock.address, direction: Direction.Down }, 200 + i);
      const upId = await commitCall(ledger, agents[0]!, upCall);
      const downId = await commitCall(ledger, agents[1]!, downCall);
      await revealCall(ledger, agents[0]!, upId, upCall);
      const revealedAt = await time.latest();
      const entry = await oracle.price(stock.address);
      await revealCall(ledger, agents[1]!, downId, downCall);
      expect((await ledger.getCall(upId)).entryPrice).to.equal(entry);

      await move(replica, stock, up, revealedAt + 60);
      const closesAt = revealedAt + HOUR;
      await time.increaseTo(closesAt + 5);
      const exit = await oracle.priceAt(stock.address, closesAt);
      expect(exit > entry).to.equal(up);

      await expect(ledger.settle(upId))
        .to.emit(ledger, "Settled")
        .withArgs(upId, agents[0]!.address, up ? Outcome.Hit : Outcome.Miss, exit);
      const downClosesAt = (await ledger.getCall(downId)).closesAt;
      const downExit = await oracle.priceAt(stock.address, downClosesAt);
      await expect(ledger.settle(downId))
        .to.emit(ledger, "Settled")
        .withArgs(downId, agents[1]!.address, up ? Outcome.Miss : Outcome.Hit, downExit);
    }
    const record = await ledger.record(agents[0]!.address);
    expect(record.hits + record.misses).to.equal(BigInt(replica.stocks.length));
  });

  it("prices the exit at closesAt however late settle comes, while the buffer covers it", async () => {
    const { replica, oracle, ledger, agents } = await loadFixture(ledgerOnReplica);
    const stock = replica.stocks[0]!;
    const call = makeCall({ asset: stock.address, direction: Direction.Up });
    const callId = await commitCall(ledger, agents[0]!, call);
    await revealCall(ledger, agents[0]!, callId, call);
    const closesAt = Number((await ledger.getCall(callId)).closesAt);
    await move(replica, stock, true, closesAt - 1200);
    await time.increaseTo(closesAt + 1);
    const atClose = await oracle.priceAt(stock.address, closesAt);
    // Hours of trading the other way after closesAt change nothing for this call.
    for (let h = 1; h <= 6; h++) await move(replica, stock, false, closesAt + h * HOUR);
    expect(await oracle.price(stock.address)).to.be.lessThan(atClose);
    await expect(ledger.settle(callId))
      .to.emit(ledger, "Settled")
      .withArgs(callId, agents[0]!.address, Outcome.Hit, atClose);
  });

  it("settles a pushed-price asset from its updater's pushes, and voids it on a stale push", async () => {
    const { oracle, ledger, agents, updater } = await loadFixture(ledgerOnReplica);
    const hourly = makeCall({ asset: PUSHED_ASSET, direction: Direction.Up }, 1);
    const daily = makeCall({ asset: PUSHED_ASSET, window: DAY, direction: Direction.Down }, 2);
    const hourlyId = await commitCall(ledger, agents[0]!, hourly);
    const dailyId = await commitCall(ledger, agents[1]!, daily);
    await revealCall(ledger, agents[0]!, hourlyId, hourly);
    await revealCall(ledger, agents[1]!, dailyId, daily);
    expect((await ledger.getCall(hourlyId)).entryPrice).to.equal(PUSHED_PRICE);
    await oracle.connect(updater).pushPrice(PUSHED_ASSET, PUSHED_PRICE + ONE);

    await time.increaseTo((await ledger.getCall(hourlyId)).closesAt);
    await expect(ledger.settle(hourlyId))
      .to.emit(ledger, "Settled")
      .withArgs(hourlyId, agents[0]!.address, Outcome.Hit, PUSHED_PRICE + ONE);

    // No push for a day: at closesAt the latest price is older than the oracle's staleness limit.
    const dailyClose = (await ledger.getCall(dailyId)).closesAt;
    await time.increaseTo(dailyClose);
    await expect(oracle.priceAt(PUSHED_ASSET, dailyClose)).to.be.revertedWithCustomError(
      oracle,
      "PriceOracleStalePrice",
    );
    await expect(ledger.settle(dailyId))
      .to.emit(ledger, "Settled")
      .withArgs(dailyId, agents[1]!.address, Outcome.Void, 0);
  });

  it("gas with the real oracle: reveal (first vote) and settle (a hit)", async () => {
    const { replica, ledger, agents } = await loadFixture(ledgerOnReplica);
    const stock = replica.stocks.find((s) => !s.usdgIsToken0)!;
    const call = makeCall({ asset: stock.address, direction: Direction.Up }, 9);
    const callId = await commitCall(ledger, agents[2]!, call);
    const reveal = await measureGas(
      "CallLedger.reveal (replica, PriceOracle)",
      revealCall(ledger, agents[2]!, callId, call),
    );
    await move(replica, stock, true, (await time.latest()) + 60);
    await time.increase(HOUR);
    const settle = await measureGas(
      "CallLedger.settle (replica, PriceOracle, first hit)",
      ledger.settle(callId),
    );
    expect((await ledger.getCall(callId)).outcome).to.equal(Outcome.Hit);
    withinTarget(reveal, GAS_TARGET.reveal);
    withinTarget(settle, GAS_TARGET.settle);
  });

  it("gas with the real oracle: the reveal that reaches consensus", async () => {
    const { replica, ledger, agents } = await loadFixture(ledgerOnReplica);
    const stock = replica.stocks[0]!;
    const calls = [0, 1, 2].map((i) => makeCall({ asset: stock.address, direction: Direction.Up }, 300 + i));
    const ids: bigint[] = [];
    for (const [i, call] of calls.entries()) ids.push(await commitCall(ledger, agents[i]!, call));
    const start = (Math.floor((await time.latest()) / HOUR) + 1) * HOUR;
    await time.setNextBlockTimestamp(start);
    await revealCall(ledger, agents[0]!, ids[0]!, calls[0]!);
    await revealCall(ledger, agents[1]!, ids[1]!, calls[1]!);
    const gas = await measureGas(
      "CallLedger.reveal (replica, PriceOracle, reaches consensus)",
      revealCall(ledger, agents[2]!, ids[2]!, calls[2]!),
    );
    expect(await ledger.consensusCount()).to.equal(1);
    // The tightest of the targets with the real oracle: see docs/call-ledger.md, "Gas".
    withinTarget(gas, GAS_TARGET.reveal);
  });
});
