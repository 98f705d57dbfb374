import { expect } from "chai";
import { AugurError } from "../errors";
import { MerkleProofError, MerkleRangeError } from "./errors";

describe("merkle errors", () => {
  it("carry their name, code, message, reason and details", () => {
    const proof = new MerkleProofError("proof has 3 hashes, expected 2", { index: 5 });
    expect([proof.name, proof.code, proof.message, proof.reason]).to.deep.equal([
      "MerkleProofError",
      "MERKLE_PROOF",
      "invalid Merkle proof: proof has 3 hashes, expected 2",
      "proof has 3 hashes, expected 2",
    ]);
    expect(proof.details).to.deep.equal({ reason: "proof has 3 hashes, expected 2", index: 5 });
    const range = new MerkleRangeError("leaf 9 outside a tree of size 4", { leafIndex: 9, size: 4 });
    expect([range.name, range.code, range.message]).to.deep.equal([
      "MerkleRangeError",
      "MERKLE_RANGE",
      "leaf 9 outside a tree of size 4",
    ]);
    expect(range.details).to.deep.equal({ leafIndex: 9, size: 4 });
    expect(proof).to.be.instanceOf(AugurError);
    expect(range).to.be.instanceOf(AugurError);
  });
});
