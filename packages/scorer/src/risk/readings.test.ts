import { expect } from "chai";
import fc from "fast-check";
import { blankVault, indexOf, vaults } from "./arbitraries.test-util";
import { RISK_COMPONENTS } from "./constants";
import { readVaultComponents, rowFromReadings, sealComponentReading } from "./readings";
import { scoreVaults } from "./score-vaults";
import { buildCrowd } from "./shared-exposure";

describe("component readings, each published on its own", () => {
  // The worked example of docs/risk-score.md: agent-7, score 7.6.
  const agent7 = blankVault("agent-7", {
    tvl_usd: 125000,
    holder_index: [
      { at: "2026-01-01T00:00:00Z", index: 1 },
      { at: 1767312000, index: 0.97 },
    ],
    holdings: [{ instrument: "TSLA", side: "long", usd: 50000 }],
    liquidation_cushion: 1,
    largest_depositor_share: 0.4,
    days_observed: 30,
    days_traded: 21,
  });

  it('"Six components, each already published on its own page here — the score adds no measurement of its own": the row recomputed from the six readings is the scored row', () => {
    const readings = readVaultComponents(agent7, buildCrowd([agent7]));
    expect(readings.map((r) => r.component)).to.deep.equal([...RISK_COMPONENTS]);
    expect(readings.map((r) => r.reading)).to.deep.equal([0.06, 0, 0, null, 0.2, 0.3]);
    expect(rowFromReadings(readings)).to.deep.equal(scoreVaults([agent7]).rows[0]);
    expect(rowFromReadings(readings).score).to.equal(7.6);
  });

  it("each reading carries the inputs it came from, and a null one says why", () => {
    const [fall, shared, cushion, exit, depositor, stopped] = readVaultComponents(
      agent7,
      buildCrowd([agent7]),
    );
    expect(fall!.inputs).to.deep.include({
      holder_index_points: 2,
      first_at: 1767225600,
      last_at: 1767312000,
    });
    expect(fall!.inputs.fall).to.be.closeTo(0.03, 1e-12);
    expect(shared!.inputs).to.deep.equal({
      holdings: [{ instrument: "TSLA", side: "long", usd: 50000 }],
      others: [{ instrument: "TSLA", long_usd: 0, short_usd: 0 }],
    });
    expect(cushion!.inputs).to.deep.equal({ cushion: 1 });
    expect(exit).to.deep.include({
      reading: null,
      reason: "the venue does not say what share could be withdrawn",
    });
    expect(depositor!.inputs).to.deep.equal({ largest_depositor_share: 0.4 });
    expect(stopped!.inputs).to.deep.equal({ days_observed: 30, days_traded: 21 });
    expect([fall, shared, cushion, depositor, stopped].map((r) => r!.reason)).to.deep.equal([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("a measured source is published with the reading; a stated reason replaces the default", () => {
    const vault = blankVault("v", { holder_index: indexOf([1, 1]), free_share: 0.1 });
    const [, , , exit, depositor] = readVaultComponents(vault, buildCrowd([vault]), {
      exit: { source: { block: 12 } },
      largest_depositor: { reason: "declared season: the records do not show who funded the wallet" },
    });
    expect(exit).to.deep.include({ reading: 0.6, reason: null });
    expect(exit!.inputs).to.deep.equal({ free_share: 0.1, source: { block: 12 } });
    expect(depositor!.reason).to.equal("declared season: the records do not show who funded the wallet");
  });

  it("recomputing any crowd's rows from their readings gives the same rows, and each reading seals alone", () => {
    fc.assert(
      fc.property(vaults, (vs) => {
        const crowd = buildCrowd(vs);
        const { rows } = scoreVaults(vs);
        vs.forEach((v, i) => {
          const readings = readVaultComponents(v, crowd);
          expect(rowFromReadings(readings)).to.deep.equal(rows[i]);
          expect(new Set(readings.map(sealComponentReading)).size).to.equal(RISK_COMPONENTS.length);
        });
      }),
    );
  });

  it("refuses a set that is not one reading of each component of one vault", () => {
    const readings = readVaultComponents(agent7, buildCrowd([agent7]));
    expect(() => rowFromReadings(readings.slice(1))).to.throw(RangeError, "exactly one reading");
    expect(() => rowFromReadings([...readings.slice(1), readings[1]!])).to.throw(RangeError);
    expect(() => rowFromReadings([...readings.slice(1), { ...readings[0]!, vault_id: "x" }])).to.throw(
      RangeError,
    );
  });

  it("publishes what an unknown, a one-point or a shared book was read from", () => {
    const blank = blankVault("blank", {});
    const [fall, shared] = readVaultComponents(blank, buildCrowd([blank]));
    expect([fall!.inputs, shared!.inputs]).to.deep.equal([{ holder_index_points: 0 }, { holdings: null }]);
    const one = blankVault("one", { holder_index: [{ at: "2026-01-02T00:00:00Z", index: 0.5 }] });
    expect(readVaultComponents(one, buildCrowd([one]))[0]!.inputs).to.deep.equal({
      holder_index_points: 1,
      first_at: 1767312000,
      last_at: 1767312000,
      fall: null,
    });
    const a = blankVault("a", {
      holdings: [
        { instrument: "TSLA", side: "long", usd: 100 },
        { instrument: "AAPL", side: "short", usd: 30 },
      ],
    });
    const b = blankVault("b", {
      holdings: [
        { instrument: "TSLA", side: "long", usd: 50 },
        { instrument: "AAPL", side: "short", usd: 20 },
        { instrument: "AAPL", side: "long", usd: 5 },
      ],
    });
    expect(readVaultComponents(a, buildCrowd([a, b]))[1]!.inputs.others).to.deep.equal([
      { instrument: "TSLA", long_usd: 50, short_usd: 0 },
      { instrument: "AAPL", long_usd: 5, short_usd: 20 },
    ]);
    // A crowd that never saw the vault (a caller's mistake) reads nobody else, not a crash.
    expect(readVaultComponents(a, new Map())[1]!.inputs.others).to.deep.equal([
      { instrument: "TSLA", long_usd: 0, short_usd: 0 },
      { instrument: "AAPL", long_usd: 0, short_usd: 0 },
    ]);
  });

  it("refuses no readings, and seven readings even when all six components are among them", () => {
    const readings = readVaultComponents(agent7, buildCrowd([agent7]));
    const message = "a risk row needs exactly one reading of each of the six components of one vault";
    expect(() => rowFromReadings([])).to.throw(RangeError, message);
    expect(() => rowFromReadings([...readings, readings[0]!])).to.throw(RangeError, message);
  });

  it("a vault with nothing known says why for each component (docs/risk-score.md: a null reading has a reason)", () => {
    const blank = blankVault("blank", {});
    expect(readVaultComponents(blank, buildCrowd([blank])).map((r) => [r.reading, r.reason])).to.deep.equal([
      [null, "fewer than two holder-index points"],
      [null, "holdings unknown: no snapshot observed"],
      [
        null,
        "margin terms unknown: the book borrows or is short and the venue does not state its maintenance margin",
      ],
      [null, "the venue does not say what share could be withdrawn"],
      [null, "the venue does not say who holds the vault"],
      [null, "no snapshot observed"],
    ]);
  });
});
