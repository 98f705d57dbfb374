import { expect } from "chai";
import fc from "fast-check";
import { type Hex32, merkleRoot, seal } from "@augur/scorer";
import { rootFromInclusionProof, verifyInclusionLocally } from "./inclusion";
import { inclusionProof } from "./testing";

const seals = (n: number): Hex32[] => Array.from({ length: n }, (_, i) => seal({ leaf: i }));

describe("local RFC 9162 inclusion check", () => {
  it("property: every leaf of every tree up to 40 leaves proves into its root", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(), (size, pick) => {
        const leaves = seals(size);
        const index = pick % size;
        const root = merkleRoot(leaves);
        const proof = inclusionProof(leaves, index);
        expect(verifyInclusionLocally(leaves[index]!, index, size, proof, root)).to.equal(true);
        // The wrong leaf, index or tree size never proves.
        expect(verifyInclusionLocally(seal({ other: index }), index, size, proof, root)).to.equal(false);
        if (size > 1)
          expect(verifyInclusionLocally(leaves[index]!, (index + 1) % size, size, proof, root)).to.equal(
            false,
          );
        // Against the next tree's root (one more leaf), the old proof fails.
        expect(
          verifyInclusionLocally(leaves[index]!, index, size + 1, proof, merkleRoot(seals(size + 1))),
        ).to.equal(false);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses an index outside the tree and a proof that is too long", () => {
    const leaves = seals(4);
    expect(rootFromInclusionProof(leaves[0]!, 4, 4, inclusionProof(leaves, 0))).to.equal(null);
    expect(rootFromInclusionProof(leaves[0]!, 0, 4, [...inclusionProof(leaves, 0), leaves[1]!])).to.equal(
      null,
    );
  });
});
