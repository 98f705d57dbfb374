import { expect } from "chai";
import { CALL_FORMATS, callTerms, latestPerCall } from "./call-terms";
import { callPoint } from "./bodies";

const head = { chainId: 31337, ledger: "0xledger", agent: "0xagent", agentId: "ada", seasonId: "s1" };
const reveal = {
  asset: "0xAsset",
  window: 3600,
  direction: "up",
  confidenceBps: 7000,
  entryPrice: "180000000000000000000",
  closesAt: 10_000,
};
const commit = (callId: string) => ({
  format: CALL_FORMATS.committed,
  ...head,
  callId,
  committedAt: 5000,
  revealDeadline: 8600,
  commitTx: "0x1",
});
const revealed = (callId: string) => ({
  format: CALL_FORMATS.revealed,
  ...head,
  callId,
  confidenceBps: 7000,
  reveal,
});
const resolved = (callId: string) => ({
  format: CALL_FORMATS.resolved,
  ...head,
  callId,
  outcome: "miss",
  confidenceBps: 7000,
  resolvedAt: 12_000,
  resolveTx: "0x2",
  reveal,
  exitPrice: "170000000000000000000",
});

describe("call records sealed as they happen", () => {
  it("reads a commit and a reveal as open, and an outcome as the outcome", () => {
    expect(callTerms(commit("1"))).to.include({
      phase: "committed",
      outcome: "open",
      revealed: false,
      closesAt: 8600,
    });
    expect(callTerms(revealed("1"))).to.include({
      phase: "revealed",
      outcome: "open",
      revealed: true,
      asset: "0xasset",
      closesAt: 10_000,
      revealedAt: 6400,
      confidenceBps: 7000,
    });
    expect(callTerms(resolved("1"))).to.include({ phase: "resolved", outcome: "miss", resolvedAt: 12_000 });
    expect(callPoint(JSON.stringify(commit("1")), "0xs")).to.include({
      outcome: "open",
      expired: false,
      direction: null,
    });
  });

  it("keeps one row per call, its furthest phase, in the order calls first appear", () => {
    const rows = [commit("1"), commit("2"), revealed("1"), resolved("1"), revealed("2"), commit("3")];
    const kept = latestPerCall(rows, (r) => r);
    expect(kept.map((r) => [r.callId, r.format])).to.deep.equal([
      ["1", CALL_FORMATS.resolved],
      ["2", CALL_FORMATS.revealed],
      ["3", CALL_FORMATS.committed],
    ]);
    // Two agents' calls never merge, whatever their ids.
    const other = { ...resolved("1"), agent: "0xother", agentId: "bo" };
    expect(latestPerCall([resolved("1"), other], (r) => r)).to.have.length(2);
    // An outcome sealed before a late reveal record (an upgraded store) still wins.
    expect(latestPerCall([resolved("4"), revealed("4")], (r) => JSON.stringify(r))[0]!.format).to.equal(
      CALL_FORMATS.resolved,
    );
  });

  it("reads what each phase leaves unsaid: an open call resolves at its close, a commit has no prices", () => {
    expect(callTerms(revealed("1"))).to.include({ resolvedAt: 10_000, direction: "up", window: 3600 });
    expect(callTerms(commit("1"))).to.include({
      resolvedAt: 8600,
      revealedAt: 8600,
      window: 0,
      asset: "",
      direction: "up",
      confidenceBps: 0,
      entryPrice: null,
      exitPrice: null,
    });
    expect(callTerms({ ...commit("1"), callId: undefined }).callId).to.equal("");
    // A reveal without an entry price, or a reveal that is not an object, leaves it unknown.
    const { entryPrice: _e, ...noEntry } = reveal;
    expect(callTerms({ ...revealed("1"), reveal: noEntry }).entryPrice).to.equal(null);
    expect(callTerms({ ...revealed("1"), reveal: "0x" })).to.include({ revealed: false, window: 0 });
    expect(callTerms({ ...resolved("1"), reveal: { ...reveal, direction: "down" } }).direction).to.equal(
      "down",
    );
  });

  it("reads an outcome as hit, void or miss: anything else sealed is a miss", () => {
    for (const [outcome, read] of [
      ["hit", "hit"],
      ["void", "void"],
      ["miss", "miss"],
      ["expired", "miss"],
    ])
      expect(callTerms({ ...resolved("1"), outcome }).outcome).to.equal(read);
  });

  it("keeps the first of two records of the same phase, and never merges calls whose key parts run together", () => {
    const first = { ...resolved("5"), resolvedAt: 1 };
    const later = { ...resolved("5"), resolvedAt: 2 };
    expect(latestPerCall([first, later], (r) => r)).to.deep.equal([first]);
    // "0xa" + "12" and "0xa1" + "2" are different calls.
    const a = { ...commit("12"), agent: "0xa" };
    const b = { ...commit("2"), agent: "0xa1" };
    expect(latestPerCall([a, b], (r) => r)).to.deep.equal([a, b]);
  });
});
