import { expect } from "chai";
import { type CallRecordBody, callTerms } from "@augur/records";
import { histogramOf } from "./histogram";
import { predictionOf } from "./predictions";

const H = 3600;
const T0 = 1_800_000_000; // on the hour
const ASSET = "0x1111111111111111111111111111111111111111";

function call(revealedAt: number, window: number, extra: Partial<CallRecordBody> = {}): CallRecordBody {
  const closesAt = revealedAt + window;
  return {
    format: "augur-call/v1",
    chainId: 31337,
    ledger: "0x3333333333333333333333333333333333333333",
    callId: "7",
    agent: "0x5555555555555555555555555555555555555555",
    agentId: "ada",
    seasonId: "s1",
    outcome: "hit",
    confidenceBps: 6500,
    resolvedAt: closesAt + 30,
    resolveTx: `0x${"ab".repeat(32)}`,
    reveal: {
      asset: ASSET.toUpperCase().replace("0X", "0x"),
      window,
      direction: "down",
      confidenceBps: 6500,
      entryPrice: "180000000000000000000",
      closesAt,
      vote: "1",
      revealTx: `0x${"cd".repeat(32)}`,
    },
    exitPrice: "179000000000000000000",
    ...extra,
  };
}

describe("referee predictions from CallLedger calls", () => {
  it("slot = the first hour at or after the reveal; horizon = the window in hours; size = confidence / 100", () => {
    expect(predictionOf("ada", callTerms(call(T0 + 120, 4 * H)))).to.deep.equal({
      agent: "ada",
      slot: "2027-01-15T09:00:00Z",
      pair: ASSET,
      horizon_h: 4,
      direction: "down",
      size: 65,
      slotAt: T0 + H,
    });
    // A reveal exactly on the hour takes that hour: its close is the TWAP up to the reveal.
    expect(predictionOf("ada", callTerms(call(T0, H)))).to.include({ slotAt: T0, horizon_h: 1 });
    // The second before the hour still waits for it.
    expect(predictionOf("ada", callTerms(call(T0 - 1, H)))).to.include({ slotAt: T0 });
    // A window that is not whole hours is rounded up.
    expect(predictionOf("ada", callTerms(call(T0, 90 * 60)))).to.include({ horizon_h: 2 });
    expect(predictionOf("ada", callTerms(call(T0, 86_400)))).to.include({ horizon_h: 24, size: 65 });
  });

  it("a void or missed call is still a prediction (the referee reads closes, not outcomes); an expired one is not", () => {
    expect(predictionOf("ada", callTerms(call(T0, H, { outcome: "void" })))).to.not.equal(undefined);
    expect(predictionOf("ada", callTerms(call(T0, H, { outcome: "miss" })))).to.include({
      direction: "down",
    });
    const expired = callTerms(
      JSON.stringify(call(T0, H, { reveal: null, outcome: "miss", exitPrice: null })),
    );
    expect(expired).to.include({ revealed: false, asset: "" });
    expect(predictionOf("ada", expired)).to.equal(undefined);
  });

  it("reads the reveal's time back exactly from closesAt − window", () => {
    const terms = callTerms(JSON.stringify(call(T0 + 77, 4 * H)));
    expect(terms).to.include({ revealedAt: T0 + 77, closesAt: T0 + 77 + 4 * H, window: 4 * H, asset: ASSET });
  });

  it("histogram: every value lands in one bin, the maximum in the last", () => {
    const values = Float64Array.from([-1, -0.5, 0, 0, 0.5, 1]);
    const h = histogramOf(values, 4);
    expect(h).to.deep.include({ min: -1, max: 1 });
    expect(h.counts).to.deep.equal([1, 1, 2, 2]);
    expect(histogramOf([3, 3, 3]).counts).to.deep.equal([3]);
    expect(histogramOf([]).counts).to.deep.equal([]);
  });
});
