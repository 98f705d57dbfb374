import { expect } from "chai";
import fc from "fast-check";
import { digestHex } from "../digest";
import { InvalidInputError } from "../errors";
import { hex32Bytes } from "../hex";
import { MerkleRootBuilder, merkleRoot } from "./root";
import { referenceRoot, sealsFor } from "./testing";

describe("MerkleRootBuilder", () => {
  it("property: seals added as hex, bytes or digests give merkleRoot's root at every size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.nat(), (n, tag) => {
        const seals = sealsFor(n, tag);
        const [hex, bytes, digests] = [
          new MerkleRootBuilder(),
          new MerkleRootBuilder(),
          new MerkleRootBuilder(),
        ];
        seals.forEach((s) => {
          hex.addHex(s);
          bytes.add(hex32Bytes(s));
          digests.addDigest(hex32Bytes(s).toString("binary"));
        });
        const root = merkleRoot(seals);
        expect([hex.root(), bytes.root(), digests.root()]).to.deep.equal([root, root, root]);
        expect(hex.size).to.equal(n);
      }),
      { numRuns: Math.min(200, Number(process.env.FC_RUNS ?? 1000)) },
    );
  });

  it("property: the root is RFC 9162's recursive MTH at every size, asked between leaves or not", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.nat(), fc.array(fc.nat(600)), (n, tag, asks) => {
        const seals = sealsFor(n, tag);
        const builder = new MerkleRootBuilder();
        const askAt = new Set(asks);
        seals.forEach((s, i) => {
          if (askAt.has(i)) expect(builder.root(), `size ${i}`).to.equal(referenceRoot(seals.slice(0, i)));
          builder.addHex(s);
        });
        expect(builder.root()).to.equal(referenceRoot(seals));
        expect(builder.size).to.equal(n);
      }),
      { numRuns: Math.min(200, Number(process.env.FC_RUNS ?? 1000)) },
    );
  });

  it("takes hex digits in either case, as Buffer's hex decoder does", () => {
    const seals = sealsFor(5);
    const upper = new MerkleRootBuilder();
    seals.forEach((s) => upper.addHex(`0x${s.slice(2).toUpperCase()}`));
    expect(upper.root()).to.equal(referenceRoot(seals));
  });

  it("keeps answering as leaves are added (root is not destructive)", () => {
    const seals = sealsFor(9);
    const builder = new MerkleRootBuilder();
    seals.forEach((s, i) => {
      builder.addHex(s);
      expect(builder.root(), `size ${i + 1}`).to.equal(merkleRoot(seals.slice(0, i + 1)));
    });
  });

  it("refuses a seal of the wrong length, naming where it came from", () => {
    expect(() => new MerkleRootBuilder().add(new Uint8Array(31))).to.throw(/seals\[0\].*32 bytes/);
    expect(() => new MerkleRootBuilder().addHex("0x12", "lines")).to.throw(/lines\[0\]/);
    const builder = new MerkleRootBuilder();
    builder.addHex(sealsFor(1)[0]!);
    const bad = `0x${"g".repeat(64)}`;
    expect(() => builder.addHex(bad, "snapshots (seal)")).to.throw(/snapshots \(seal\)\[1\].*64 hex digits/);
    expect(builder.size, "a refused seal is not added").to.equal(1);
    expect(() => builder.addHex("0x12", "lines"))
      .to.throw(InvalidInputError)
      .with.property("details")
      .that.deep.equals({ path: "lines[1]", value: "0x12" });
    expect(digestHex("\u0000".repeat(32))).to.equal(`0x${"00".repeat(32)}`);
  });
});
