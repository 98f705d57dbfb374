import { expect } from "chai";
import fc from "fast-check";
import { digestHex } from "../digest";
import { canonicalJson, seal } from "../seal";
import { sealSnapshot, snapshotCanonicalJson, snapshotSealDigest } from "./snapshot-seal";

describe("snapshot seal fast path", () => {
  it("property: equals the general RFC 8785 seal for any valid snapshot row", () => {
    const decimal = fc.oneof(
      // Valid rows: a JSON number beyond ±(2^53 − 1) is refused by validation (I-JSON).
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((d) => !Number.isInteger(d) || Number.isSafeInteger(d)),
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
        const digest = snapshotSealDigest(r);
        expect(digest).to.have.lengthOf(32);
        expect(digestHex(digest)).to.equal(seal(r));
      }),
    );
  });

  it("property: a row's given seal is its digest, byte for byte", () => {
    const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("hex"));
    fc.assert(
      fc.property(hex64, (hex) => {
        const row = {
          agent: "a",
          at: "2026-11-01T00:00:00Z",
          nav: 1,
          flow: 0,
          invested: 0,
          seal: `0x${hex}` as const,
        };
        expect(digestHex(snapshotSealDigest(row))).to.equal(row.seal);
        expect(Buffer.from(snapshotSealDigest(row), "binary").toString("hex")).to.equal(hex);
      }),
    );
  });
});
