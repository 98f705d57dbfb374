import { expect } from "chai";
import hre from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import type { CallLedger, PriceOracle } from "../typechain-types";
import { augurOnReplica } from "./shared/augur";
import { announceReplicaMode } from "./shared/replica";
import { quietly } from "./tasks/helpers";
import { rejection } from "./shared/rejection";
import { Direction, HOUR, Outcome, commitCall, makeCall, revealCall } from "./shared/callLedger";

const ONE = 10n ** 18n;

/**
 * A stock split (ERC-8056) inside an open call's window. The rule (docs/call-ledger.md, "Stock
 * splits"): balances, pool prices and therefore the oracle's prices are all per raw token, and a
 * split changes none of them, only `uiMultiplier`, the shares a raw token shows as. So the call's
 * entry and exit prices are comparable as they are, and NAV = Σ raw balance × price needs no
 * multiplier; a per-share price (price ÷ multiplier) would jump at the split and must not be used.
 */
describe("CallLedger: a stock split inside an open call's window", () => {
  before(() => announceReplicaMode());

  it("leaves raw prices and NAV continuous, and the call's outcome follows the market, not the split", async () => {
    const deployment = await loadFixture(augurOnReplica);
    const replica = deployment.replica!;
    const stock = replica.stocks[0]!;
    const [, trader, agent] = await hre.ethers.getSigners();
    const ledger = (await hre.ethers.getContractAt(
      "CallLedger",
      deployment.callLedger,
    )) as unknown as CallLedger;
    const oracle = (await hre.ethers.getContractAt(
      "PriceOracle",
      deployment.priceOracle,
    )) as unknown as PriceOracle;
    const usdgUnit = 10n ** BigInt(replica.usdgDecimals);
    await replica.fund(agent!.address, "USDG", 1000n * usdgUnit);
    await replica.usdg.connect(agent!).approve(deployment.callLedger, hre.ethers.MaxUint256);
    await ledger.connect(agent!).deposit(1000n * usdgUnit);

    const call = makeCall({ asset: stock.address, window: HOUR, direction: Direction.Up }, 8056);
    const callId = await commitCall(ledger, agent!, call);
    await revealCall(ledger, agent!, callId, call);
    const { closesAt, entryPrice } = await ledger.getCall(callId);
    const splitAt = Number(closesAt) - HOUR / 2;

    // The issuer schedules a 2-for-1 split for the middle of the window (the replica's task).
    const scheduled = (await quietly(() =>
      hre.run("replica:split", { stock: stock.symbol, ratio: "2", at: String(splitAt), json: true }),
    )) as { multiplier: bigint; effectiveAt: number };
    expect([scheduled.multiplier, scheduled.effectiveAt]).to.deep.equal([2n * ONE, splitAt]);

    // Across the split, with no trade around it: the same raw balance, the same oracle price, so the
    // same NAV from raw units; the shares shown double and the price per shown share halves.
    const navOf = async () => {
      const balance = await stock.token.balanceOf(trader!.address);
      const price = await oracle.price(stock.address);
      return {
        balance,
        price,
        multiplier: await stock.token.uiMultiplier(),
        nav: (balance * price) / 10n ** BigInt(stock.decimals),
        shown: await stock.token.balanceOfUI(trader!.address),
      };
    };
    await time.increaseTo(splitAt - 1);
    const before = await navOf();
    await time.increaseTo(splitAt + 1);
    const after = await navOf();
    expect(before.multiplier).to.equal(ONE);
    expect(after.multiplier).to.equal(2n * ONE);
    expect(after.balance).to.equal(before.balance);
    expect(after.price).to.equal(before.price);
    expect(after.nav).to.equal(before.nav);
    expect(after.shown).to.equal(2n * before.shown);

    // After the split the stock rises: the call hits on raw prices. Per shown share the exit is
    // below the entry (halved by the split), which is exactly the comparison the ledger must not make.
    await replica.swap(stock, "buy", 300_000n * usdgUnit, { at: splitAt + 600 });
    await time.increaseTo(Number(closesAt) + 5);
    const exit = await oracle.priceAt(stock.address, closesAt);
    expect(exit).to.be.greaterThan(entryPrice);
    expect((exit * ONE) / after.multiplier).to.be.lessThan(entryPrice);
    await expect(ledger.settle(callId))
      .to.emit(ledger, "Settled")
      .withArgs(callId, agent!.address, Outcome.Hit, exit);
  });

  it("replica:split compounds splits and refuses a bad ratio, a past time and a token without ERC-8056", async () => {
    const deployment = await loadFixture(augurOnReplica);
    const stock = deployment.replica!.stocks[1]!;
    const split = (args: Record<string, unknown>) =>
      quietly(() => hre.run("replica:split", { stock: stock.symbol, json: true, ...args }));
    const first = (await split({ ratio: "3" })) as { effectiveAt: number };
    await time.increaseTo(first.effectiveAt);
    const second = (await split({ ratio: "0.5" })) as { previousMultiplier: bigint; multiplier: bigint };
    expect([second.previousMultiplier, second.multiplier]).to.deep.equal([3n * ONE, (3n * ONE) / 2n]);
    expect((await rejection(split({ ratio: "0" }))).message).to.match(/ratio must be a positive number/);
    expect((await rejection(split({ ratio: "2", at: "1" }))).message).to.match(
      /at must be a unix second after the latest block/,
    );
    expect((await rejection(split({ stock: deployment.usdg, ratio: "2" }))).message).to.match(
      /not an ERC-8056 token/,
    );
  });
});
