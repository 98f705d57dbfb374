import { expect } from "chai";
import fc from "fast-check";
import { toHex32, type Hex32 } from "../hex";
import { EMPTY_ROOT, leafHash } from "./hashing";
import { MerkleLog } from "./log";
import { MerkleProofError, MerkleRangeError } from "./errors";
import { consistencyMutants, inclusionMutants, logCase, sealsFor } from "./testing";
import {
  rootFromConsistencyProof,
  rootFromInclusionProof,
  verifyConsistency,
  verifyInclusion,
  verifyLeafHashInclusion,
} from "./verify";

describe("merkle: verifiers", () => {
  const seals = sealsFor(1024);
  // Built inside each test, so its code counts as that test's (not a load-time "static" mutant).
  const freshLog = () => new MerkleLog(seals);

  it("every honest inclusion proof verifies; every mutated one fails (1–1,024 leaves)", () => {
    const log = freshLog();
    fc.assert(
      fc.property(logCase, ({ size, leafIndex, pick }) => {
        const index = leafIndex % size;
        const honest = log.inclusionProof(index, size);
        expect(verifyInclusion(seals[index]!, honest)).to.equal(true);
        for (const { label, proof } of inclusionMutants(honest, pick, (n) => log.root(n), log.size)) {
          expect(verifyInclusion(seals[index]!, proof), label).to.equal(false);
        }
        // Another seal, or the leaf hash passed where the seal belongs, never verifies.
        expect(verifyInclusion(seals[(index + 1) % 1024]!, honest)).to.equal(false);
        expect(verifyInclusion(log.leafHash(index), honest)).to.equal(false);
      }),
    );
  });

  it("an inner node passed as a leaf fails: the 0x00/0x01 prefixes are what stops it", () => {
    const log = freshLog();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 512 }), fc.nat(), (half, j) => {
        // In a tree of 2·half leaves, the level-1 nodes form a tree of `half` leaves with the
        // same root: node j with the leaf's path minus its first sibling is a "proof" for it.
        const size = 2 * half;
        const index = 2 * (j % half);
        const honest = log.inclusionProof(index, size);
        const inner = toHex32(
          Buffer.from(
            rootFromInclusionProof(log.leafHash(index), 0, 2, [log.leafHash(index + 1)]).slice(2),
            "hex",
          ),
        );
        const forged = {
          leafIndex: index / 2,
          treeSize: half,
          root: honest.root,
          proof: honest.proof.slice(1),
        };
        // Without domain separation the forgery would hold (hashing the node as a leaf hash) …
        expect(verifyLeafHashInclusion(inner, forged)).to.equal(true);
        // … but a seal is always hashed with the leaf prefix first, so it cannot pose as a node.
        expect(verifyInclusion(inner, forged)).to.equal(false);
      }),
    );
  });

  it("every honest consistency proof verifies; every mutated one fails (1–1,024 leaves)", () => {
    const log = freshLog();
    fc.assert(
      fc.property(logCase, ({ size, fromSize, pick }) => {
        const honest = log.consistencyProof(fromSize, size);
        expect(verifyConsistency(honest)).to.equal(true);
        if (fromSize > 0)
          expect(rootFromConsistencyProof(fromSize, size, honest.fromRoot, honest.proof)).to.equal(
            honest.toRoot,
          );
        for (const { label, proof } of consistencyMutants(honest, pick, (n) => log.root(n), log.size)) {
          expect(verifyConsistency(proof), `${label} ${JSON.stringify(proof)}`).to.equal(false);
        }
      }),
    );
  });

  describe("edge cases", () => {
    const some: Hex32 = `0x${"ab".repeat(32)}`;

    it("a one-leaf tree: the root is the leaf hash, the proof empty", () => {
      const root = toHex32(leafHash(some));
      expect(verifyInclusion(some, { leafIndex: 0, treeSize: 1, root, proof: [] })).to.equal(true);
      expect(verifyInclusion(some, { leafIndex: 0, treeSize: 1, root: some, proof: [] })).to.equal(false);
    });

    it("nothing is included in the empty tree", () => {
      expect(verifyInclusion(some, { leafIndex: 0, treeSize: 0, root: EMPTY_ROOT, proof: [] })).to.equal(
        false,
      );
      expect(() => rootFromInclusionProof(some, 0, 0, [])).to.throw(
        MerkleRangeError,
        /leaf index 0 is not below tree size 0/,
      );
    });

    it("equal sizes are consistent only with equal roots and an empty proof", () => {
      const log = freshLog();
      const root = log.root(5);
      expect(verifyConsistency({ fromSize: 5, toSize: 5, fromRoot: root, toRoot: root, proof: [] })).to.equal(
        true,
      );
      expect(verifyConsistency({ fromSize: 5, toSize: 5, fromRoot: root, toRoot: some, proof: [] })).to.equal(
        false,
      );
      expect(
        verifyConsistency({ fromSize: 5, toSize: 5, fromRoot: root, toRoot: root, proof: [root] }),
      ).to.equal(false);
      expect(() => rootFromConsistencyProof(5, 5, root, [root])).to.throw(
        MerkleProofError,
        /between equal sizes/,
      );
    });

    it("the empty tree is extended by every tree, with an empty proof and its fixed root", () => {
      const log = freshLog();
      const to = log.root(7);
      expect(
        verifyConsistency({ fromSize: 0, toSize: 7, fromRoot: EMPTY_ROOT, toRoot: to, proof: [] }),
      ).to.equal(true);
      expect(verifyConsistency({ fromSize: 0, toSize: 7, fromRoot: some, toRoot: to, proof: [] })).to.equal(
        false,
      );
      expect(
        verifyConsistency({ fromSize: 0, toSize: 7, fromRoot: EMPTY_ROOT, toRoot: to, proof: [to] }),
      ).to.equal(false);
      expect(() => rootFromConsistencyProof(0, 7, EMPTY_ROOT, [])).to.throw(
        MerkleRangeError,
        /from size 0 to size 7/,
      );
    });

    it("from 0 to 0 leaves, only the empty tree's root is consistent (RFC 9162 §2.1.1)", () => {
      const empty = { fromSize: 0, toSize: 0, fromRoot: EMPTY_ROOT, toRoot: EMPTY_ROOT, proof: [] };
      expect(verifyConsistency(empty)).to.equal(true);
      expect(verifyConsistency({ ...empty, fromRoot: some, toRoot: some })).to.equal(false);
      expect(verifyConsistency({ ...empty, toRoot: some })).to.equal(false);
      expect(verifyConsistency({ ...empty, proof: [EMPTY_ROOT] })).to.equal(false);
    });

    it("takes every hash as raw bytes as well as hex, and refuses bytes that are not 32 long", () => {
      const log = freshLog();
      const bytes = (hash: Hex32) => Uint8Array.from(Buffer.from(hash.slice(2), "hex"));
      const p = log.inclusionProof(5, 13);
      const rawProof = p.proof.map(bytes);
      expect(rootFromInclusionProof(bytes(log.leafHash(5)), 5, 13, rawProof)).to.equal(p.root);
      expect(verifyLeafHashInclusion(bytes(log.leafHash(5)), p)).to.equal(true);
      expect(verifyLeafHashInclusion(bytes(log.leafHash(4)), p)).to.equal(false);
      const c = log.consistencyProof(6, 13);
      expect(rootFromConsistencyProof(6, 13, bytes(c.fromRoot), c.proof.map(bytes))).to.equal(c.toRoot);
      const short = new Uint8Array(31);
      expect(() => rootFromInclusionProof(short, 5, 13, p.proof)).to.throw(
        MerkleProofError,
        "invalid Merkle proof: leaf hash is not a 32-byte hash",
      );
      expect(() => rootFromInclusionProof(log.leafHash(5), 5, 13, [new Uint8Array(33)])).to.throw(
        MerkleProofError,
        "proof[0] is not a 32-byte hash",
      );
      expect(() => rootFromConsistencyProof(6, 13, short, c.proof)).to.throw(
        MerkleProofError,
        "fromRoot is not a 32-byte hash",
      );
      expect(verifyLeafHashInclusion(short, p)).to.equal(false);
      expect(verifyLeafHashInclusion(log.leafHash(5), { ...p, root: short as unknown as Hex32 })).to.equal(
        false,
      );
    });

    it("refuses an index or a size that is not a non-negative safe integer, with a typed error", () => {
      const log = freshLog();
      const p = log.inclusionProof(2, 5);
      const leaf = log.leafHash(2);
      // 2.5 would walk the path of leaf 2 and verify if only the range check stood.
      for (const bad of [2.5, -1, NaN, Infinity, 2 ** 53, "2"]) {
        expect(() => rootFromInclusionProof(leaf, bad as number, 5, p.proof), String(bad)).to.throw(
          MerkleRangeError,
          "leafIndex must be a non-negative safe integer",
        );
        expect(verifyInclusion(seals[2]!, { ...p, leafIndex: bad as number }), String(bad)).to.equal(false);
      }
      for (const bad of [5.5, -5, "5"]) {
        expect(() => rootFromInclusionProof(leaf, 2, bad as number, p.proof), String(bad)).to.throw(
          MerkleRangeError,
          "treeSize must be a non-negative safe integer",
        );
        expect(verifyInclusion(seals[2]!, { ...p, treeSize: bad as number }), String(bad)).to.equal(false);
      }
      const c = log.consistencyProof(4, 9);
      for (const [field, bad] of [
        ["fromSize", 4.5],
        ["toSize", 9.5],
        ["fromSize", "4"],
        ["toSize", -9],
      ] as const) {
        expect(verifyConsistency({ ...c, [field]: bad as number }), `${field} ${bad}`).to.equal(false);
        const [from, to] = field === "fromSize" ? [bad as number, 9] : [4, bad as number];
        const error = (() => {
          try {
            rootFromConsistencyProof(from, to, c.fromRoot, c.proof);
          } catch (e) {
            return e as MerkleRangeError;
          }
        })();
        expect(error, `${field} ${bad}`).to.be.instanceOf(MerkleRangeError);
        expect(error!.message).to.equal(`${field} must be a non-negative safe integer`);
        expect(error!.details).to.deep.equal({ [field]: bad });
      }
      expect(verifyConsistency(c)).to.equal(true);
    });

    it("errors carry the offending values, for consistency proofs as for inclusion proofs", () => {
      const log = freshLog();
      const caught = (f: () => unknown) => {
        try {
          f();
        } catch (e) {
          return e as MerkleProofError;
        }
        throw new Error("did not throw");
      };
      const p = log.inclusionProof(3, 10);
      const leaf = log.leafHash(3);
      const c = log.consistencyProof(3, 10);
      const cases: [() => unknown, string, Record<string, unknown>][] = [
        [
          () => rootFromInclusionProof(leaf, 10, 10, []),
          "leaf index 10 is not below tree size 10",
          { leafIndex: 10, treeSize: 10 },
        ],
        [
          () => rootFromInclusionProof(leaf, 3, 10, [...p.proof, some]),
          "invalid Merkle proof: proof is longer than the path",
          { reason: "proof is longer than the path", length: p.proof.length + 1 },
        ],
        [
          () => rootFromInclusionProof(leaf, 3, 10, p.proof.slice(1)),
          "invalid Merkle proof: proof is shorter than the path",
          { reason: "proof is shorter than the path", length: p.proof.length - 1 },
        ],
        [
          () => rootFromInclusionProof("0x12" as Hex32, 3, 10, p.proof),
          "invalid Merkle proof: leaf hash is not a 32-byte hash",
          { reason: "leaf hash is not a 32-byte hash", value: "0x12" },
        ],
        [
          () => rootFromConsistencyProof(11, 10, c.fromRoot, []),
          "no consistency proof from size 11 to size 10",
          { fromSize: 11, toSize: 10 },
        ],
        [
          () => rootFromConsistencyProof(3, 10, c.fromRoot, [...c.proof, some]),
          "invalid Merkle proof: proof is longer than the path",
          { reason: "proof is longer than the path", length: c.proof.length + 1 },
        ],
        [
          () => rootFromConsistencyProof(3, 10, c.fromRoot, c.proof.slice(0, -1)),
          "invalid Merkle proof: proof is shorter than the path",
          { reason: "proof is shorter than the path", length: c.proof.length - 1 },
        ],
        [
          () => rootFromConsistencyProof(3, 10, c.fromRoot, [c.proof[0]!, "0x34" as Hex32]),
          "invalid Merkle proof: proof[1] is not a 32-byte hash",
          { reason: "proof[1] is not a 32-byte hash", value: "0x34" },
        ],
      ];
      for (const [f, message, details] of cases) {
        const error = caught(f);
        expect(error.message, message).to.equal(message);
        expect(error.details, message).to.deep.equal(details);
      }
    });

    it("a seal is 0x and 64 lowercase hex digits: other spellings of the same bytes are not included", () => {
      const log = freshLog();
      const p = log.inclusionProof(3, 10);
      expect(verifyInclusion(seals[3]!, p)).to.equal(true);
      expect(verifyInclusion(`0x${seals[3]!.slice(2).toUpperCase()}` as Hex32, p)).to.equal(false);
      expect(verifyInclusion(`${seals[3]!}zz` as Hex32, p)).to.equal(false);
    });

    it("a proof object without a proof array is a caller's bug: it throws rather than answer false", () => {
      const log = freshLog();
      const p = log.inclusionProof(3, 10);
      const c = log.consistencyProof(3, 10);
      const noArray = null as unknown as Hex32[];
      expect(() => verifyInclusion(seals[3]!, { ...p, proof: noArray })).to.throw(TypeError);
      expect(() => verifyConsistency({ ...c, proof: noArray })).to.throw(TypeError);
    });

    it("the throwing forms name the problem", () => {
      const log = freshLog();
      const honest = log.inclusionProof(3, 10);
      const leaf = log.leafHash(3);
      expect(() => rootFromInclusionProof(leaf, 3, 10, honest.proof.slice(1))).to.throw(
        MerkleProofError,
        /shorter than the path/,
      );
      expect(() => rootFromInclusionProof(leaf, 3, 10, [...honest.proof, some])).to.throw(
        MerkleProofError,
        /longer than the path/,
      );
      expect(() => rootFromInclusionProof(leaf, 3, 10, ["0x12" as Hex32])).to.throw(
        MerkleProofError,
        /proof\[0\] is not a 32-byte hash/,
      );
      expect(() => rootFromInclusionProof(leaf, -1, 10, [])).to.throw(MerkleRangeError, /leafIndex must be/);
      const c = log.consistencyProof(3, 10);
      expect(() => rootFromConsistencyProof(3, 10, some, c.proof)).to.throw(
        MerkleProofError,
        /does not rebuild the old root/,
      );
      expect(() => rootFromConsistencyProof(3, 10, c.fromRoot, [])).to.throw(
        MerkleProofError,
        /proof is empty/,
      );
      expect(() => rootFromConsistencyProof(11, 10, c.fromRoot, [])).to.throw(
        MerkleRangeError,
        /from size 11 to size 10/,
      );
    });

    it("boolean verifiers return false on malformed input instead of throwing", () => {
      const log = freshLog();
      const honest = log.inclusionProof(3, 10);
      expect(verifyInclusion("0x12" as Hex32, honest)).to.equal(false);
      expect(verifyInclusion(seals[3]!, { ...honest, proof: ["nope" as Hex32] })).to.equal(false);
      expect(verifyInclusion(seals[3]!, { ...honest, treeSize: 2 ** 60 })).to.equal(false);
      expect(verifyInclusion(seals[3]!, { ...honest, root: "0x" as Hex32 })).to.equal(false);
      const c = log.consistencyProof(3, 10);
      expect(verifyConsistency({ ...c, toSize: -1 })).to.equal(false);
      expect(verifyConsistency({ ...c, fromRoot: "x" as Hex32 })).to.equal(false);
    });
  });
});
