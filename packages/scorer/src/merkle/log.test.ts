import { expect } from "chai";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { InvalidInputError } from "../errors";
import { toHex32, type Hex32 } from "../hex";
import { EMPTY_ROOT, leafHash, nodeHash, splitPoint } from "./hashing";
import { MerkleLog } from "./log";
import { MerkleRangeError } from "./errors";
import { merkleRoot } from "./root";
import { sealsFor } from "./testing";

// A deliberately naive reference: RFC 9162 §2.1 written as literal recursion over an array,
// rebuilt from scratch for every question. The log must agree with it everywhere.
const mth = (leaves: Buffer[]): Buffer => {
  if (leaves.length === 0) return createHash("sha256").digest();
  if (leaves.length === 1) return leaves[0]!;
  const k = splitPoint(leaves.length);
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
};
const refPath = (m: number, leaves: Buffer[]): Buffer[] => {
  if (leaves.length <= 1) return [];
  const k = splitPoint(leaves.length);
  return m < k
    ? [...refPath(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...refPath(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
};
const refSubproof = (m: number, leaves: Buffer[], b: boolean): Buffer[] => {
  if (m === leaves.length) return b ? [] : [mth(leaves)];
  const k = splitPoint(leaves.length);
  return m <= k
    ? [...refSubproof(m, leaves.slice(0, k), b), mth(leaves.slice(k))]
    : [...refSubproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
};

describe("merkle: MerkleLog", () => {
  it("merkleRoot, the log and the naive reference agree for every size 0–70", () => {
    const seals = sealsFor(70);
    const log = new MerkleLog();
    const leaves = seals.map(leafHash);
    for (let n = 0; n <= 70; n++) {
      const expected = toHex32(mth(leaves.slice(0, n)));
      expect(merkleRoot(seals.slice(0, n)), `merkleRoot ${n}`).to.equal(expected);
      expect(log.root(), `log ${n}`).to.equal(expected);
      if (n < 70) log.append(seals[n]!);
    }
  });

  it("answers roots and proofs for every past size, equal to merkleRoot and the reference", () => {
    // One log of 1,024 leaves serves every past size: that is the point of keeping the levels.
    // The naive reference costs about 4n hashes a run, so this property takes a quarter of
    // FC_RUNS (250 in npm test, 2,500 in test:deep); the cheap properties run the full count.
    const seals = sealsFor(1024);
    const log = new MerkleLog(seals);
    const leaves = seals.map(leafHash);
    const runs = Math.ceil((fc.readConfigureGlobal().numRuns ?? 100) / 4);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1024 }), fc.nat(), fc.nat(), (treeSize, b, c) => {
        const leafIndex = b % treeSize;
        const fromSize = c % (treeSize + 1);
        const prefix = leaves.slice(0, treeSize);
        const root = toHex32(mth(prefix));
        expect(log.root(treeSize)).to.equal(root);
        expect(merkleRoot(seals.slice(0, treeSize))).to.equal(root);
        expect(log.inclusionProof(leafIndex, treeSize).proof).to.deep.equal(
          refPath(leafIndex, prefix).map(toHex32),
        );
        const expected = fromSize === 0 || fromSize === treeSize ? [] : refSubproof(fromSize, prefix, true);
        expect(log.consistencyProof(fromSize, treeSize).proof).to.deep.equal(expected.map(toHex32));
      }),
      { numRuns: runs },
    );
  });

  it("a log built by appends equals a log built at once, whatever the batch sizes", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }), (batches) => {
        const seals = sealsFor(batches.reduce((a, b) => a + b, 0));
        const log = new MerkleLog();
        let done = 0;
        for (const batch of batches) {
          for (const seal of seals.slice(done, done + batch)) log.append(seal);
          done += batch;
          expect(log.root()).to.equal(merkleRoot(seals.slice(0, done)));
        }
      }),
    );
  });

  it("leaf hash is sha256(0x00 ‖ seal) and node hash sha256(0x01 ‖ l ‖ r)", () => {
    const seal = sealsFor(1)[0]!;
    const bytes = Buffer.from(seal.slice(2), "hex");
    const expectedLeaf = createHash("sha256")
      .update(Buffer.concat([Buffer.of(0), bytes]))
      .digest();
    expect(leafHash(seal).equals(expectedLeaf)).to.equal(true);
    expect(new MerkleLog([seal]).root()).to.equal(toHex32(expectedLeaf));
    const expectedNode = createHash("sha256")
      .update(Buffer.concat([Buffer.of(1), bytes, expectedLeaf]))
      .digest();
    expect(nodeHash(bytes, expectedLeaf).equals(expectedNode)).to.equal(true);
  });

  it("returns the leaf index from append and keeps the size", () => {
    const log = new MerkleLog();
    expect(log.size).to.equal(0);
    expect(log.root()).to.equal(EMPTY_ROOT);
    const seals = sealsFor(3);
    expect(seals.map((s) => log.append(s))).to.deep.equal([0, 1, 2]);
    expect(log.size).to.equal(3);
    expect(log.leafHash(2)).to.equal(toHex32(leafHash(seals[2]!)));
  });

  it("a log grown by appends past its first buffers answers the same proofs as one sized at once", () => {
    // 300 appends regrow level 0 (first sized for 64 leaves) and levels above: every old node must move.
    const seals = sealsFor(300);
    const grown = new MerkleLog();
    for (const seal of seals) grown.append(seal);
    const sized = new MerkleLog(seals);
    for (const [index, size] of [
      [0, 300],
      [63, 65],
      [64, 300],
      [130, 257],
      [299, 300],
    ] as const) {
      expect(grown.inclusionProof(index, size), `leaf ${index} of ${size}`).to.deep.equal(
        sized.inclusionProof(index, size),
      );
      expect(grown.leafHash(index)).to.equal(sized.leafHash(index));
    }
    for (const from of [1, 3, 64, 100, 257])
      expect(grown.consistencyProof(from), `from ${from}`).to.deep.equal(sized.consistencyProof(from));
  });

  describe("refuses", () => {
    // Built before each test (not while mocha loads the file), so its code counts as that test's.
    let log: MerkleLog;
    beforeEach(() => (log = new MerkleLog(sealsFor(5))));
    const cases: [string, () => unknown, RegExp][] = [
      ["a root beyond the log", () => log.root(6), /treeSize 6 is outside the log of 5 leaves/],
      ["a negative size", () => log.root(-1), /treeSize -1/],
      ["a fractional size", () => log.root(2.5), /treeSize 2.5/],
      [
        "an index at the tree size",
        () => log.inclusionProof(3, 3),
        /leaf index 3 is outside the tree of 3 leaves/,
      ],
      [
        "an index beyond the log",
        () => log.inclusionProof(9),
        /leaf index 9 is outside the tree of 5 leaves/,
      ],
      [
        "an inclusion proof in an empty tree",
        () => log.inclusionProof(0, 0),
        /leaf index 0 is outside the tree of 0/,
      ],
      ["a consistency proof backwards", () => log.consistencyProof(4, 3), /fromSize 4 is above toSize 3/],
      ["a consistency proof beyond the log", () => log.consistencyProof(1, 8), /toSize 8 is outside the log/],
      ["a missing leaf hash", () => log.leafHash(5), /leaf index 5 is outside/],
      ["a negative index", () => log.inclusionProof(-1, 5), /leaf index -1 is outside the tree of 5/],
      ["a fractional index", () => log.inclusionProof(2.5, 5), /leaf index 2.5 is outside the tree of 5/],
      ["a negative leaf hash index", () => log.leafHash(-1), /leaf index -1 is outside/],
      [
        "an inclusion proof beyond the log",
        () => log.inclusionProof(0, 9),
        /treeSize 9 is outside the log of 5/,
      ],
    ];
    for (const [label, call, message] of cases) {
      it(label + " with MerkleRangeError", () => {
        expect(call).to.throw(MerkleRangeError, message);
      });
    }

    it("naming the offending values in the error's details", () => {
      const details = (call: () => unknown): unknown => {
        try {
          call();
        } catch (error) {
          return (error as MerkleRangeError).details;
        }
        throw new Error("did not throw");
      };
      expect(details(() => log.root(6))).to.deep.equal({ treeSize: 6, logSize: 5 });
      expect(details(() => log.consistencyProof(2, 7))).to.deep.equal({ toSize: 7, logSize: 5 });
      expect(details(() => log.consistencyProof(-1, 3))).to.deep.equal({ fromSize: -1, logSize: 5 });
      expect(details(() => log.consistencyProof(4, 3))).to.deep.equal({ fromSize: 4, toSize: 3 });
      expect(details(() => log.inclusionProof(3, 3))).to.deep.equal({ leafIndex: 3, treeSize: 3 });
      expect(details(() => log.append("0x12" as Hex32))).to.deep.equal({ path: "seal #5", value: "0x12" });
    });

    it("a seal that is a String object, not a string, with InvalidInputError", () => {
      const boxed = new String(sealsFor(1)[0]!) as unknown as Hex32;
      expect(() => log.append(boxed)).to.throw(InvalidInputError, /seal #5/);
      expect(() => merkleRoot([boxed])).to.throw(InvalidInputError, /seals\[0\]/);
    });

    it("a leaf hash that is not 32 bytes with InvalidInputError", () => {
      expect(() => new MerkleLog().appendLeafHash(new Uint8Array(31))).to.throw(
        InvalidInputError,
        /leafHash: is not 32 bytes/,
      );
    });

    for (const bad of ["0x12", "0x" + "g".repeat(64), "0x" + "a".repeat(65), "ab".repeat(33), 7]) {
      it(`a malformed seal ${JSON.stringify(bad)} with InvalidInputError, leaving the log unchanged`, () => {
        const before = log.root();
        expect(() => log.append(bad as Hex32)).to.throw(
          InvalidInputError,
          /seal #5: is not 0x followed by 64 hex/,
        );
        expect(() => merkleRoot([sealsFor(1)[0]!, bad as Hex32])).to.throw(InvalidInputError, /seals\[1\]/);
        expect(log.size).to.equal(5);
        expect(log.root()).to.equal(before);
      });
    }
  });
});
