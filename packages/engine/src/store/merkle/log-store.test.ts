import { createHash } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import { hex32Bytes, leafHash, merkleRoot, nodeHash, toHex32, type Hex32 } from "@augur/scorer";
import type { Store } from "../open";
import { testBackends } from "../testing";
import { LogRangeError, MerkleLogStore } from "./log-store";
import { completeSubtrees, inclusionRanges } from "./subtrees";

function sealOf(i: number): Hex32 {
  return toHex32(createHash("sha256").update(`leaf ${i}`).digest());
}

/**
 * Test-only RFC 9162 §2.1.3.2 verifier (root from leaf + path), written from the RFC text so the
 * store's proofs are checked independently; issue 5's verifier replaces it once merged.
 */
function rootFromInclusionProof(seal: Hex32, index: number, size: number, proof: readonly Hex32[]): Hex32 {
  let fn = index;
  let sn = size - 1;
  let r = leafHash(seal);
  for (const p of proof) {
    const sibling = hex32Bytes(p);
    if (sn === 0) throw new Error("proof too long");
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(sibling, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new Error("proof too short");
  return toHex32(r);
}

describe("log subtrees", () => {
  it("cover [0, n) with one complete subtree per set bit of n, largest first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) => {
        const keys = completeSubtrees(0, n);
        expect(keys.length).to.equal(n.toString(2).replace(/0/g, "").length);
        let pos = 0;
        for (const k of keys) {
          expect(k.idx * 2 ** k.level).to.equal(pos);
          pos += 2 ** k.level;
        }
        expect(pos).to.equal(n);
      }),
    );
  });

  it("give an inclusion path of ceil(log2 n) ranges for a full tree", () => {
    expect(inclusionRanges(5, 8)).to.deep.equal([
      [4, 5],
      [6, 8],
      [0, 4],
    ]);
    expect(inclusionRanges(0, 1)).to.deep.equal([]);
  });
});

for (const backend of testBackends()) {
  describe(`Merkle log store on ${backend.name}`, () => {
    let store: Store;
    const log = new MerkleLogStore();
    const seals = Array.from({ length: 77 }, (_, i) => sealOf(i));

    before(async () => {
      store = await backend.open();
      // Appends in uneven batches, as cycles and single submissions would.
      let at = 0;
      for (const batch of [1, 1, 2, 5, 8, 20, 40]) {
        await store.db.transaction().execute(async (trx) => {
          await log.lockForAppend(trx);
          expect(await log.append(trx, seals.slice(at, at + batch), 1000)).to.equal(at);
        });
        at += batch;
      }
    });
    after(async () => store.close());

    it("stores every leaf at its index", async () => {
      expect(await log.size(store.db)).to.equal(77);
      expect(await log.leafIndexOf(store.db, seals[42]!)).to.equal(42);
      expect(await log.leafIndexOf(store.db, sealOf(1000))).to.equal(undefined);
    });

    it("computes the RFC 6962 root of every prefix from persisted subtrees", async () => {
      for (let n = 0; n <= seals.length; n++) {
        expect(await log.root(store.db, n), `size ${n}`).to.equal(merkleRoot(seals.slice(0, n)));
      }
    });

    it("gives inclusion proofs that verify against the root of every size", async () => {
      for (let n = 1; n <= seals.length; n += 3) {
        const root = merkleRoot(seals.slice(0, n));
        for (let m = 0; m < n; m += 2) {
          const proof = await log.inclusionProof(store.db, m, n);
          expect(rootFromInclusionProof(seals[m]!, m, n, proof), `leaf ${m} of ${n}`).to.equal(root);
        }
      }
    });

    it("refuses sizes beyond the log and leaves outside the tree", async () => {
      await expectRejected(log.root(store.db, 78), LogRangeError);
      await expectRejected(log.inclusionProof(store.db, 10, 10), LogRangeError);
      await expectRejected(log.inclusionProof(store.db, -1, 10), LogRangeError);
    });

    it("refuses a second leaf with a seal already in the log, leaving the log unchanged", async () => {
      const error = await store.db
        .transaction()
        .execute(async (trx) => {
          await log.lockForAppend(trx);
          await log.append(trx, [sealOf(500), seals[3]!], 2000);
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(Error);
      expect(await log.size(store.db)).to.equal(77);
    });
  });
}

async function expectRejected(
  promise: Promise<unknown>,
  type: new (...args: never[]) => Error,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(type);
}
