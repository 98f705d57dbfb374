import { createHash } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import {
  MerkleLog,
  merkleRoot,
  toHex32,
  verifyConsistency,
  verifyInclusion,
  type Hex32,
} from "@augur/scorer";
import type { Store } from "../open";
import { testBackends } from "../../../test-support/store/testing";
import { LogRangeError, MerkleLogStore, STORED_FROM_LEVEL } from "./log-store";
import { completeSubtrees, inclusionRanges } from "./subtrees";

function sealOf(i: number): Hex32 {
  return toHex32(createHash("sha256").update(`leaf ${i}`).digest());
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
    const seals = Array.from({ length: 85 }, (_, i) => sealOf(i));

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
      // Then several appends through one appender in one transaction, as a batch of submissions.
      await store.db.transaction().execute(async (trx) => {
        await log.lockForAppend(trx);
        const appender = await log.appender(trx);
        for (const batch of [1, 3, 4]) {
          expect(await appender.append(trx, seals.slice(at, at + batch), 1000)).to.equal(at);
          at += batch;
        }
      });
    });
    after(async () => store.close());

    it("stores every leaf at its index", async () => {
      expect(await log.size(store.db)).to.equal(85);
      expect(await log.leafIndexOf(store.db, seals[42]!)).to.equal(42);
      expect(await log.leafIndexOf(store.db, sealOf(1000))).to.equal(undefined);
    });

    it("stores a subtree hash only from STORED_FROM_LEVEL up (85 leaves: 5 + 2 + 1 rows)", async () => {
      const rows = await store.db.selectFrom("merkle_nodes").select(["level", "idx"]).execute();
      expect(rows.every((r) => r.level >= STORED_FROM_LEVEL)).to.equal(true);
      expect(rows).to.have.length(5 + 2 + 1); // levels 4, 5 and 6
    });

    it("computes the RFC 6962 root of every prefix from persisted subtrees", async () => {
      for (let n = 0; n <= seals.length; n++) {
        expect(await log.root(store.db, n), `size ${n}`).to.equal(merkleRoot(seals.slice(0, n)));
      }
    });

    it("gives inclusion proofs that verify against the root of every size", async () => {
      const memory = new MerkleLog(seals);
      for (let n = 1; n <= seals.length; n += 3) {
        const root = merkleRoot(seals.slice(0, n));
        for (let m = 0; m < n; m += 2) {
          const proof = await log.inclusionProof(store.db, m, n);
          expect(
            verifyInclusion(seals[m]!, { leafIndex: m, treeSize: n, root, proof }),
            `leaf ${m} of ${n}`,
          ).to.equal(true);
          // The same path as the in-memory log of packages/scorer gives.
          expect(proof).to.deep.equal(memory.inclusionProof(m, n).proof);
        }
      }
    });

    it("gives consistency proofs between every pair of sizes, equal to the in-memory log's and verifying", async () => {
      const memory = new MerkleLog(seals);
      for (let n = 0; n <= seals.length; n += 4) {
        for (let m = 0; m <= n; m += 3) {
          const proof = await log.consistencyProof(store.db, m, n);
          const expected = memory.consistencyProof(m, n);
          expect(proof, `${m} → ${n}`).to.deep.equal(expected.proof);
          if (m > 0) expect(verifyConsistency({ ...expected, proof })).to.equal(true);
        }
      }
      await expectRejected(log.consistencyProof(store.db, 5, 4), LogRangeError);
    });

    it("refuses sizes beyond the log and leaves outside the tree", async () => {
      await expectRejected(log.root(store.db, seals.length + 1), LogRangeError);
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
      expect(await log.size(store.db)).to.equal(85);
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
