import type { Hex32 } from "../hex";
import { expect } from "chai";
import fc from "fast-check";
import { merkleRoot } from "../merkle/root";
import { EMPTY_ROOT } from "../merkle/hashing";
import { canonicalJson, seal } from "../seal";
import { fakeSeal, hoursAfterStart, makeSeason } from "./fixture";
import { inputRoot, inputRoots, MANIFEST_VERSION, rowCanonicalJson, sealInput } from "./input-roots";
import { DECIDERS } from "./types";
import { sealManifest } from "./manifest-seal";
import { recomputeManifest } from "./recompute";
import { scoreSeason, scoreSeasonJson } from "./season";
import type { SeasonInput } from "./types";

const season = makeSeason([
  {
    id: "me",
    navs: [100, 101, 102],
    trades: [
      { at: hoursAfterStart(2), asset: "TSLA", side: "sell", quantity: 1, price: 181 },
      { at: hoursAfterStart(1), asset: "TSLA", side: "buy", quantity: 1, price: 180 },
    ],
    calls: [
      { resolved_at: hoursAfterStart(1), confidence: 0.6, outcome: "hit" },
      { resolved_at: hoursAfterStart(2), confidence: 0.7, outcome: "void" },
    ],
  },
]);
const manifestOf = (input: SeasonInput) => scoreSeason(input).rows[0]!.manifest;

describe("manifest version 2: every input bound by root", () => {
  const m = manifestOf(season);

  it("roots over the seals of the decisions, trades (time order) and calls the scorer read", () => {
    expect(m.manifest_version).to.equal(MANIFEST_VERSION);
    expect(m.inputs.decision_root).to.equal(merkleRoot(season.decisions.map((r) => seal(r))));
    // The trade at hour 1 is read before the one at hour 2, whatever the input order.
    expect(m.inputs.trade_root).to.equal(merkleRoot([seal(season.trades[1]), seal(season.trades[0])]));
    expect(m.inputs.call_root).to.equal(merkleRoot(season.calls.map((r) => seal(r))));
    expect(m.inputs.call_count).to.equal(2);
    expect(m.inputs.inputs_log_size).to.equal(null);
  });

  it("a row's given seal is what its root takes; no rows give the empty root", () => {
    const sealed = {
      ...season,
      decisions: season.decisions.map((d, i) => ({ ...d, seal: fakeSeal(i + 1) })),
    };
    expect(manifestOf(sealed).inputs.decision_root).to.equal(
      merkleRoot(season.decisions.map((_, i) => fakeSeal(i + 1))),
    );
    expect(sealInput({ ...season.calls[0]!, seal: fakeSeal(9) })).to.equal(fakeSeal(9));
    expect(manifestOf({ ...season, calls: [] }).inputs.call_root).to.equal(EMPTY_ROOT);
  });

  it("leaving out any one decision, trade or call changes its root and the seal", () => {
    const base = scoreSeason(season).rows[0]!;
    for (const kind of ["decisions", "trades", "calls"] as const) {
      const root = { decisions: "decision_root", trades: "trade_root", calls: "call_root" }[kind];
      season[kind].forEach((_, i) => {
        const fewer = { ...season, [kind]: season[kind].filter((__, j) => j !== i) };
        const row = scoreSeason(fewer).rows[0]!;
        expect(row.manifest.inputs[root as "call_root"], `${kind}[${i}]`).not.to.equal(
          base.manifest.inputs[root as "call_root"],
        );
        expect(row.seal).not.to.equal(base.seal);
      });
    }
  });

  it("names the log size it read below; the validator refuses a bad one", () => {
    expect(manifestOf({ ...season, inputs_log_size: 42 }).inputs.inputs_log_size).to.equal(42);
    expect(() => scoreSeasonJson({ ...season, inputs_log_size: -1 })).to.throw(/inputs_log_size/);
    expect(() => scoreSeasonJson({ ...season, inputs_log_size: 1.5 })).to.throw(/inputs_log_size/);
    expect(() => scoreSeasonJson({ ...season, trades: [{ ...season.trades[0]!, seal: "0x12" }] })).to.throw(
      /trades\[0\]\.seal/,
    );
  });

  it("names the list and place of a malformed given seal", () => {
    const rows = { decisions: season.decisions, trades: season.trades, calls: season.calls };
    const bad = "0x12" as Hex32;
    const cases = [
      ["decisions (seal)[0]", { ...rows, decisions: [{ ...season.decisions[0]!, seal: bad }] }],
      ["trades (seal)[1]", { ...rows, trades: [season.trades[0]!, { ...season.trades[1]!, seal: bad }] }],
      ["calls (seal)[0]", { ...rows, calls: [{ ...season.calls[0]!, seal: bad }] }],
    ] as const;
    for (const [name, given] of cases) {
      expect(() => inputRoots(given, 7)).to.throw(`${name}: is not 0x followed by 64 hex digits`);
    }
    expect(inputRoots(rows, 7)).to.include({ call_count: 2, inputs_log_size: 7 });
  });

  it("seals like seal(manifest), and a version-1 manifest (no version, no roots) still recomputes", () => {
    expect(sealManifest(m)).to.equal(seal(m));
    const { manifest_version: _, ...v1 } = m;
    const { decision_root, trade_root, call_count, call_root, inputs_log_size, ...v1Inputs } = m.inputs;
    void [_, decision_root, trade_root, call_count, call_root, inputs_log_size];
    const old = { ...v1, inputs: v1Inputs };
    expect(sealManifest(old)).to.equal(seal(old));
    expect(recomputeManifest(old).ok).to.equal(true);
  });

  it("property: each row kind's direct canonical JSON equals RFC 8785's, and its root the general one", () => {
    const text = fc.string({ unit: "grapheme", minLength: 1 });
    const at = fc.constantFrom("2026-11-01T00:00:00Z", "2026-11-01T00:00:00.250Z");
    // Numbers a seal can hold (I-JSON: no integer beyond ±(2^53 − 1)), as the input rules require.
    const decimal = fc.oneof(
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((x) => !Number.isInteger(x) || Number.isSafeInteger(x)),
      fc.stringMatching(/^(0|[1-9]\d{0,8})(\.\d{1,6})?$/),
    );
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    const decision = fc.record({
      agent: text,
      at,
      decider: fc.constantFrom(...DECIDERS),
      asset: text,
      action: text,
    });
    const trade = fc.record({
      agent: text,
      at,
      asset: text,
      side: fc.constantFrom("buy" as const, "sell" as const),
      quantity: decimal,
      price: decimal,
    });
    const call = fc.record({
      agent: text,
      resolved_at: at,
      confidence: unit,
      outcome: fc.constantFrom("hit" as const, "miss" as const, "void" as const),
    });
    fc.assert(
      fc.property(fc.array(decision), fc.array(trade), fc.array(call), (ds, ts, cs) => {
        for (const d of ds) expect(rowCanonicalJson.decision(d)).to.equal(canonicalJson(d));
        for (const t of ts) expect(rowCanonicalJson.trade(t)).to.equal(canonicalJson(t));
        for (const c of cs) expect(rowCanonicalJson.call(c)).to.equal(canonicalJson(c));
        expect(inputRoot(ts, rowCanonicalJson.trade, "trades")).to.equal(merkleRoot(ts.map((t) => seal(t))));
      }),
    );
  });
});
