import { expect } from "chai";
import { type CallPoint, streaks } from "./record-bodies";

const call = (closesAt: number, outcome: CallPoint["outcome"]): CallPoint => ({
  callId: String(closesAt),
  asset: "0x1",
  window: 3600,
  direction: "up",
  confidenceBps: 6000,
  revealedAt: closesAt - 3600,
  closesAt,
  entryPrice: 1,
  exitPrice: 1,
  outcome,
  seal: "0x",
});

describe("site views", () => {
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
  });
});
