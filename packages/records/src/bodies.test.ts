import { expect } from "chai";
import type { CallRecordBody } from "./call-terms";
import { callPoint, type CallPoint, decisionPoint, snapshotPoint, streaks, tradePoint } from "./bodies";

const call = (closesAt: number, outcome: CallPoint["outcome"]): CallPoint => ({
  callId: String(closesAt),
  asset: "0x1",
  window: 3600,
  direction: "up",
  confidenceBps: 6000,
  revealedAt: closesAt - 3600,
  closesAt,
  resolvedAt: closesAt + 60,
  expired: false,
  entryPrice: 1,
  exitPrice: 1,
  outcome,
  seal: "0x",
});

describe("record bodies as the site reads them", () => {
  it("streaks: current and best run of hits in close order; a void counts as nothing", () => {
    const calls = [
      call(5, "hit"),
      call(1, "hit"),
      call(2, "hit"),
      call(3, "miss"),
      call(4, "void"),
      call(6, "hit"),
    ];
    expect(streaks(calls)).to.deep.equal({ streak: 2, bestStreak: 2 });
    expect(streaks([call(1, "hit"), call(2, "hit"), call(3, "hit"), call(4, "miss")])).to.deep.equal({
      streak: 0,
      bestStreak: 3,
    });
    expect(streaks([])).to.deep.equal({ streak: 0, bestStreak: 0 });
    // A void between two hits breaks nothing.
    expect(streaks([call(1, "hit"), call(2, "void"), call(3, "hit")])).to.deep.equal({
      streak: 2,
      bestStreak: 2,
    });
  });

  it("callPoint reads the indexer's augur-call/v1 body: the reveal's fields, reveal time = closesAt − window", () => {
    const revealed: CallRecordBody = {
      format: "augur-call/v1",
      chainId: 31337,
      ledger: "0x70e0ba845a1a0f2da3359c97e0285013525ffc49",
      callId: "42",
      agent: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
      agentId: "ada",
      seasonId: "s1",
      outcome: "hit",
      confidenceBps: 8000,
      resolvedAt: 7300,
      resolveTx: `0x${"d7".repeat(32)}`,
      reveal: {
        asset: "0xbdb7cb221fe39d932d50b4b88a178a7102964cb8",
        closesAt: 7213,
        confidenceBps: 8000,
        direction: "down",
        entryPrice: "180500000000000000000",
        revealTx: `0x${"81".repeat(32)}`,
        vote: "1000000000000000000",
        window: 3600,
      },
      exitPrice: "180250000000000000000",
    };
    expect(callPoint(JSON.stringify(revealed), "0xs")).to.deep.equal({
      callId: "42",
      asset: "0xbdb7cb221fe39d932d50b4b88a178a7102964cb8",
      window: 3600,
      direction: "down",
      confidenceBps: 8000,
      revealedAt: 3613,
      closesAt: 7213,
      resolvedAt: 7300,
      expired: false,
      entryPrice: 180.5,
      exitPrice: 180.25,
      outcome: "hit",
      seal: "0xs",
    });
    // Never revealed: no asset, window or direction to show; it counts as a miss when it resolved.
    const expired = { ...revealed, outcome: "miss", confidenceBps: 10_000, reveal: null, exitPrice: null };
    expect(callPoint(JSON.stringify(expired), "0xt")).to.deep.include({
      asset: "",
      window: 0,
      direction: null,
      revealedAt: 7300,
      expired: true,
      entryPrice: null,
      outcome: "miss",
    });
  });

  it("reads a signed record's message and an engine body alike, in the units people read", () => {
    const snapshot = { takenAt: 100, nav: "2500000", flow: "-500000", investedBps: 2500 };
    const signed = JSON.stringify({ format: "augur-record/v1", type: "Snapshot", message: snapshot });
    const point = { at: 100, nav: 2.5, flow: -0.5, invested: 0.25, seal: "0xs" };
    expect(snapshotPoint(signed, "0xs")).to.deep.equal(point);
    expect(
      snapshotPoint(JSON.stringify({ format: "augur-snapshot/v2", ...snapshot, usdgDecimals: 6 }), "0xs"),
    ).to.deep.equal(point);
    const trade = {
      executedAt: 7,
      asset: "0xa",
      side: "sell",
      quantity: "1500000000000000000",
      price: "2000000000000000000",
    };
    expect(tradePoint(JSON.stringify({ message: trade }))).to.deep.equal({
      at: 7,
      asset: "0xa",
      side: "sell",
      quantity: 1.5,
      price: 2,
    });
    expect(tradePoint(JSON.stringify({ ...trade, side: "buy" })).side).to.equal("buy");
    // Anything but "sell" reads as a buy.
    expect(tradePoint(JSON.stringify({ ...trade, side: "hold" })).side).to.equal("buy");
    const decision = { decidedAt: 9, source: "decider", asset: "0xb", action: "hold" };
    expect(decisionPoint(JSON.stringify({ message: decision }))).to.deep.equal({
      at: 9,
      source: "decider",
      asset: "0xb",
      action: "hold",
    });
  });
});
