import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, takeSnapshot, time } from "@nomicfoundation/hardhat-network-helpers";
import type { CallLedger, PriceOracle } from "../typechain-types";
import { announceReplicaMode, buildReplica, type Replica, type ReplicaStock } from "./shared/replica";
import { DEFAULT_STOCKS } from "../scripts/replica/stocks";
import { Direction, Outcome, commitCall, makeCall, revealCall } from "./shared/callLedger";

// The buffer decision (docs/call-ledger.md, "The pool's buffer"): setPool asks a pool's ring for
// twapWindow + settleGrace seconds, not + the longest call window, because settle reads only
// [closesAt − twapWindow, closesAt]. Small numbers, the launch arithmetic (300 s + 2 h there):
// a 30 s TWAP, 30 s of grace and a 10-minute call window far longer than the ring's 61 seconds.
const W = 30;
const GRACE = 30;
const SPAN = W + GRACE;
const WINDOW = 600;

async function tightLedger() {
  const replica = await buildReplica({
    stocks: DEFAULT_STOCKS.slice(0, 1),
    observationCardinality: SPAN + 1,
    hours: 0,
  });
  const stock = replica.stocks[0]!;
  const [admin] = await ethers.getSigners();
  const agent = (await ethers.getSigners())[2]!;
  const usdg = await replica.usdg.getAddress();
  const oracle = (await ethers.deployContract("PriceOracle", [
    usdg,
    W,
    admin!.address,
  ])) as unknown as PriceOracle;
  await oracle.setRequiredSpan(SPAN);
  const unit = 10n ** BigInt(replica.usdgDecimals);
  const ledger = (await ethers.deployContract("CallLedger", [
    usdg,
    await oracle.getAddress(),
    100n * unit,
    admin!.address,
  ])) as unknown as CallLedger;
  await ledger.setWindow(WINDOW, true);
  await replica.fund(agent.address, "USDG", 1000n * unit);
  await replica.usdg.connect(agent).approve(await ledger.getAddress(), ethers.MaxUint256);
  await ledger.connect(agent).deposit(1000n * unit);
  await replica.fund(replica.trader.address, "USDG", 100_000_000n * unit);
  await replica.fund(replica.trader.address, stock, 1_000_000n * 10n ** BigInt(stock.decimals));
  for (const token of [replica.usdg, stock.token]) {
    await token.connect(replica.trader).approve(await replica.router.getAddress(), ethers.MaxUint256);
  }
  // The pool's first swap fills its ring to SPAN + 1, after which setPool accepts it.
  await tradeAt(replica, stock, (await time.latest()) + 1, 0);
  await oracle.setPool(stock.address, stock.poolAddress);
  // History for the entry TWAP: the reveal reads the last W seconds.
  await time.increase(2 * W);
  return { replica, stock, oracle, ledger, agent };
}

/** One swap at `at`, buying on even `i` and selling on odd, so every second moves the tick. */
async function tradeAt(replica: Replica, stock: ReplicaStock, at: number, i: number) {
  if (i % 2 === 0) await replica.swap(stock, "buy", 50_000n * 10n ** BigInt(replica.usdgDecimals), { at });
  else await replica.swap(stock, "sell", 200n * 10n ** BigInt(stock.decimals), { at });
}

describe("CallLedger: a call's close just inside and just outside the pool's buffer", () => {
  before(() => announceReplicaMode());

  it("with a trade every second (the worst case), a call is priced while trading has run GRACE s past its close, and void one second later", async () => {
    const { replica, stock, oracle, ledger, agent } = await loadFixture(tightLedger);
    const call = makeCall({ asset: stock.address, window: WINDOW, direction: Direction.Up });
    const callId = await commitCall(ledger, agent, call);
    await revealCall(ledger, agent, callId, call);
    const { closesAt, entryPrice } = await ledger.getCall(callId);
    const close = Number(closesAt);
    // A trade in every second of the call's window and of the grace after it.
    let t = await time.latest();
    let i = 1;
    while (t < close) await tradeAt(replica, stock, ++t, i++);
    const exit = await oracle.priceAt(stock.address, closesAt);
    expect(exit).to.not.equal(entryPrice);
    const outcome = exit > entryPrice ? Outcome.Hit : Outcome.Miss;
    while (t < close + GRACE) await tradeAt(replica, stock, ++t, i++);
    const [span, guaranteed, needed] = await oracle.coverage(stock.address);
    expect([span, guaranteed, needed]).to.deep.equal([BigInt(SPAN), BigInt(SPAN), BigInt(SPAN)]);

    // Just inside: the ring's oldest observation is closesAt − W, exactly the exit TWAP's start.
    const inside = await takeSnapshot();
    await expect(ledger.settle(callId))
      .to.emit(ledger, "Settled")
      .withArgs(callId, agent.address, outcome, exit);
    await inside.restore();

    // Just outside: one more second of trading overwrites the observation at closesAt − W, and the
    // settle finds Uniswap's "OLD" (PriceOracleWindowNotCovered): the call is void.
    await tradeAt(replica, stock, ++t, i++);
    await expect(ledger.settle(callId))
      .to.emit(ledger, "Settled")
      .withArgs(callId, agent.address, Outcome.Void, 0);
    // The call's window was ten times the ring's span: only its last W seconds were ever read.
    expect(WINDOW).to.equal(10 * SPAN);
  });
});
