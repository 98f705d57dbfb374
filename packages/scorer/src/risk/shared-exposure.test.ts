import { expect } from "chai";
import fc from "fast-check";
import { blankVault, vaults } from "./arbitraries.test-util";
import { buildCrowd, crowdLean, readSharedExposure } from "./shared-exposure";
import type { Holding, VaultInput } from "./types";

const hold = (instrument: string, side: "long" | "short", usd: number): Holding => ({
  instrument,
  side,
  usd,
});
const book = (id: string, holdings: Holding[] | null): VaultInput => blankVault(id, { holdings });

function readAll(all: VaultInput[]): Record<string, number | null> {
  const crowd = buildCrowd(all);
  return Object.fromEntries(all.map((v) => [v.id, readSharedExposure(v.holdings, crowd)]));
}

describe("shared exposure", () => {
  it('"everybody holding it the same way is" this risk: a vault in a one-sided crowd reads 1', () => {
    const read = readAll([book("a", [hold("TSLA", "long", 100)]), book("b", [hold("TSLA", "long", 50)])]);
    expect(read).to.deep.equal({ a: 1, b: 1 });
  });

  it('"Everybody holding the same instrument in opposite directions is not this risk"', () => {
    const read = readAll([book("a", [hold("TSLA", "long", 100)]), book("b", [hold("TSLA", "short", 100)])]);
    expect(read).to.deep.equal({ a: 0, b: 0 });
  });

  it("reads the crowd's lean in the vault's own direction; a crowd leaning the other way counts 0", () => {
    const read = readAll([
      book("a", [hold("NVDA", "long", 10)]),
      book("b", [hold("NVDA", "long", 100)]),
      book("c", [hold("NVDA", "long", 100)]),
      book("d", [hold("NVDA", "short", 100)]),
    ]);
    // a sees 200 long, 100 short: (200 − 100) / 300; d sees 210 long against it.
    expect(read.a).to.be.closeTo(1 / 3, 1e-12);
    expect(read.d).to.equal(0);
  });

  it("takes the vault's own positions out of the crowd: alone in an instrument is not crowded", () => {
    expect(readAll([book("a", [hold("HOOD", "long", 1e6)]), book("b", [])])).to.deep.equal({ a: 0, b: 0 });
  });

  it("weights each holding by its USD exposure", () => {
    const read = readAll([
      book("a", [hold("TSLA", "long", 300), hold("AAPL", "long", 100)]),
      book("b", [hold("TSLA", "long", 1)]), // TSLA crowd fully one-sided → 1
      book("c", [hold("AAPL", "short", 1)]), // AAPL crowd against a → 0
    ]);
    expect(read.a).to.equal(0.75);
  });

  it("an empty book reads 0; unknown holdings read null (null is not zero)", () => {
    const read = readAll([book("flat", []), book("unknown", null), book("x", [hold("TSLA", "long", 5)])]);
    expect(read.flat).to.equal(0);
    expect(read.unknown).to.equal(null);
  });

  it("a vault reporting no holdings adds nothing to anybody's crowd", () => {
    const crowd = buildCrowd([book("a", null), book("b", [hold("TSLA", "short", 3)])]);
    expect([...crowd.entries()]).to.deep.equal([["TSLA", { long: 0, short: 3 }]]);
  });

  it("crowdLean ignores float dust left after removing the vault's own position", () => {
    const own = { long: 0.1 + 0.2, short: 0 };
    expect(crowdLean("long", { long: 0.30000000000000004 + 1e-17, short: 0 }, own)).to.equal(0);
  });

  it("dust is below 1e-9 of the instrument's total USD, on either side; more than that is somebody", () => {
    // 3 USD in the instrument: the dust line is 3e-9. 1e-9 left over is nobody, 1e-6 is a holder.
    const own = { long: 1, short: 0 };
    expect(crowdLean("short", { long: 1 + 1e-9, short: 2 }, own)).to.equal(1);
    expect(crowdLean("long", { long: 1 + 1e-9, short: 2 }, own)).to.equal(0);
    const aboveDust = crowdLean("short", { long: 1 + 1e-6, short: 2 }, own);
    expect(aboveDust).to.be.closeTo((2 - 1e-6) / (2 + 1e-6), 1e-12);
    expect(aboveDust).to.be.below(1);
    const ownShort = { long: 0, short: 2 };
    expect(crowdLean("long", { long: 1, short: 2 + 1e-9 }, ownShort)).to.equal(1);
    expect(crowdLean("long", { long: 1, short: 2 + 1e-6 }, ownShort)).to.be.below(1);
  });

  it("dust exactly at the line is nobody, on either side", () => {
    // 10^9 USD in the instrument: the line is exactly 1 USD, and exactly 1 USD is left over.
    expect(crowdLean("long", { long: 1e9, short: 0 }, { long: 1e9 - 1, short: 0 })).to.equal(0);
    expect(crowdLean("short", { long: 0, short: 1e9 }, { long: 0, short: 1e9 - 1 })).to.equal(0);
  });

  it("a holding in an instrument the crowd never saw reads 0 lean instead of throwing", () => {
    expect(readSharedExposure([hold("TSLA", "long", 5)], new Map())).to.equal(0);
  });

  it("every reading is in [0, 1] (or null exactly when holdings are unknown)", () => {
    fc.assert(
      fc.property(vaults, (all) => {
        const crowd = buildCrowd(all);
        for (const v of all) {
          const reading = readSharedExposure(v.holdings, crowd);
          if (v.holdings === null) expect(reading).to.equal(null);
          else expect(reading).to.be.within(0, 1);
        }
      }),
    );
  });

  it("does not depend on the order of vaults or of holdings", () => {
    fc.assert(
      fc.property(vaults, (all) => {
        const reversed = [...all]
          .reverse()
          .map((v) => ({ ...v, holdings: v.holdings && [...v.holdings].reverse() }));
        const a = readAll(all);
        const b = readAll(reversed);
        for (const id of Object.keys(a)) {
          if (a[id] === null) expect(b[id]).to.equal(null);
          else expect(b[id]).to.be.closeTo(a[id]!, 1e-9);
        }
      }),
    );
  });
});
