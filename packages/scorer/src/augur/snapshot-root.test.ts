import { expect } from "chai";
import fc from "fast-check";
import { merkleRoot } from "../merkle";
import { seal } from "../seal";
import { snapshotRoot } from "./snapshot-root";

describe("snapshotRoot", () => {
  it("property: equals the Merkle log's merkleRoot for any number of seals (0 to 300)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer(), (n, salt) => {
        const seals = Array.from({ length: n }, (_, i) => seal({ i, salt }));
        expect(snapshotRoot(seals)).to.equal(merkleRoot(seals));
      }),
      { numRuns: Math.min(200, Number(process.env.FC_RUNS ?? 1000)) },
    );
  });
});
