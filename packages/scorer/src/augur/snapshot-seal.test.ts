import { expect } from "chai";
import fc from "fast-check";
import { canonicalJson, seal } from "../seal";
import { sealSnapshot, snapshotCanonicalJson, snapshotSealBytes } from "./snapshot-seal";

describe("snapshot seal fast path", () => {
  it("property: equals the general RFC 8785 seal for any valid snapshot row", () => {
    const decimal = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.stringMatching(/^-?(0|[1-9]\d{0,8})(\.\d{1,6})?$/),
    );
    const row = fc.record({
      agent: fc.string({ unit: "grapheme", minLength: 1 }),
      at: fc.constantFrom("2026-11-01T00:00:00Z", "2026-11-01T00:00:00.250Z"),
      nav: decimal,
      flow: decimal,
      invested: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(row, (r) => {
        expect(snapshotCanonicalJson(r)).to.equal(canonicalJson(r));
        expect(sealSnapshot(r)).to.equal(seal(r));
        expect(`0x${snapshotSealBytes(r).toString("hex")}`).to.equal(seal(r));
      }),
    );
  });
});
