import { expect } from "chai";
import { ethers } from "hardhat";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import {
  EMPTY_ROOT,
  MerkleLog,
  leafHash,
  nodeHash,
  toHex32,
  verifyConsistency,
  verifyInclusion,
  type ConsistencyProof,
  type Hex32,
  type InclusionProof,
} from "@augur/scorer";
import {
  consistencyMutants,
  flipBit,
  inclusionMutants,
  sealsFor,
} from "../../packages/scorer/src/merkle/testing";

// On-chain property runs: each run checks 16 honest proofs and ~160 mutants of each kind in one
// eth_call (the harness's batch entry points), so FC_RUNS / 40 runs (25 in npm test, 250 in
// test:deep) compare TypeScript and Solidity on ~4,000 inclusion and ~4,000 consistency verdicts
// by default, in about half a minute on our shared 2-core machines.
const ON_CHAIN_RUNS = Math.max(10, Math.ceil((fc.readConfigureGlobal().numRuns ?? 100) / 40));
const CASES_PER_RUN = 16;

async function deployHarness() {
  const harness = await (await ethers.getContractFactory("MerkleLogHarness")).deploy();
  return { harness };
}

const seals = sealsFor(1024);
const log = new MerkleLog(seals);
const rootOf = (n: number): Hex32 => log.root(n);

describe("MerkleLog", () => {
  it("hashes leaves, nodes and the empty tree exactly as the TypeScript log", async () => {
    const { harness } = await loadFixture(deployHarness);
    const [a, b] = seals as [Hex32, Hex32];
    expect(await harness.hashLeaf(a)).to.equal(toHex32(leafHash(a)));
    expect(await harness.hashNode(a, b)).to.equal(
      toHex32(nodeHash(Buffer.from(a.slice(2), "hex"), Buffer.from(b.slice(2), "hex"))),
    );
    expect(await harness.emptyRoot()).to.equal(EMPTY_ROOT);
    expect(EMPTY_ROOT).to.equal(`0x${createHash("sha256").digest("hex")}`);
  });

  // RFC 6962 vectors of github.com/transparency-dev/merkle (testonly/constants.go,
  // proof/verify_test.go), over the leaf hashes of their raw leaf inputs.
  describe("RFC 6962 test vectors (transparency-dev/merkle)", () => {
    const leafHashOf = (data: string): Hex32 =>
      toHex32(
        createHash("sha256")
          .update(Buffer.concat([Buffer.of(0), Buffer.from(data, "hex")]))
          .digest(),
      );
    const inputs = [
      "",
      "00",
      "10",
      "2021",
      "3031",
      "40414243",
      "5051525354555657",
      "606162636465666768696a6b6c6d6e6f",
    ];
    const root8 = "0x5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328";
    const root6 = "0x76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef";

    it("rebuilds the size-8 root from the published proof of leaf 5", async () => {
      const { harness } = await loadFixture(deployHarness);
      const proof = [
        "0xbc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "0xca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "0xd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
      ];
      expect(await harness.rootFromInclusionProof(leafHashOf(inputs[5]!), 5, 8, proof)).to.equal(root8);
    });

    it("rebuilds the size-8 root from the published consistency proof 6 → 8", async () => {
      const { harness } = await loadFixture(deployHarness);
      const proof = [
        "0x0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "0xca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "0xd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
      ];
      expect(await harness.rootFromConsistencyProof(6, 8, root6, proof)).to.equal(root8);
      expect(await harness.verifyConsistency(6, 8, root6, root8, proof)).to.equal(true);
      expect(await harness.verifyConsistency(6, 8, root6, root8, proof.slice(1))).to.equal(false);
    });
  });

  it("size 0 → 0 is consistent only between empty roots, on both sides", async () => {
    const { harness } = await loadFixture(deployHarness);
    const other = seals[0]!;
    const cases: [Hex32, Hex32, boolean][] = [
      [EMPTY_ROOT, EMPTY_ROOT, true],
      [other, other, false],
      [EMPTY_ROOT, other, false],
      [other, EMPTY_ROOT, false],
    ];
    for (const [fromRoot, toRoot, expected] of cases) {
      const proof: ConsistencyProof = { fromSize: 0, toSize: 0, fromRoot, toRoot, proof: [] };
      expect(verifyConsistency(proof), `TS ${fromRoot} → ${toRoot}`).to.equal(expected);
      expect(await harness.verifyConsistency(0, 0, fromRoot, toRoot, []), `chain ${fromRoot}`).to.equal(
        expected,
      );
    }
    // From the empty tree to a non-empty one: the empty root and an empty proof, nothing else.
    expect(await harness.verifyConsistency(0, 4, EMPTY_ROOT, rootOf(4), [])).to.equal(true);
    expect(await harness.verifyConsistency(0, 4, other, rootOf(4), [])).to.equal(false);
  });

  describe("custom errors", () => {
    const honest = log.inclusionProof(3, 10);
    const consistency = log.consistencyProof(3, 10);
    const some = seals[0]!;

    it("MerkleLogLeafIndexOutOfRange(leafIndex, treeSize)", async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.rootFromInclusionProof(some, 10, 10, []))
        .to.be.revertedWithCustomError(harness, "MerkleLogLeafIndexOutOfRange")
        .withArgs(10, 10);
    });

    it("MerkleLogProofTooLong(length)", async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.rootFromInclusionProof(log.leafHash(3), 3, 10, [...honest.proof, some]))
        .to.be.revertedWithCustomError(harness, "MerkleLogProofTooLong")
        .withArgs(honest.proof.length + 1);
      await expect(
        harness.rootFromConsistencyProof(3, 10, consistency.fromRoot, [...consistency.proof, some]),
      )
        .to.be.revertedWithCustomError(harness, "MerkleLogProofTooLong")
        .withArgs(consistency.proof.length + 1);
    });

    it("MerkleLogProofTooShort(length)", async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.rootFromInclusionProof(log.leafHash(3), 3, 10, honest.proof.slice(1)))
        .to.be.revertedWithCustomError(harness, "MerkleLogProofTooShort")
        .withArgs(honest.proof.length - 1);
      await expect(harness.rootFromConsistencyProof(3, 10, consistency.fromRoot, []))
        .to.be.revertedWithCustomError(harness, "MerkleLogProofTooShort")
        .withArgs(0);
    });

    it("MerkleLogSizesOutOfOrder(fromSize, toSize)", async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.rootFromConsistencyProof(0, 4, EMPTY_ROOT, []))
        .to.be.revertedWithCustomError(harness, "MerkleLogSizesOutOfOrder")
        .withArgs(0, 4);
      await expect(harness.rootFromConsistencyProof(5, 4, some, []))
        .to.be.revertedWithCustomError(harness, "MerkleLogSizesOutOfOrder")
        .withArgs(5, 4);
    });

    it("MerkleLogProofNotEmpty(length) between equal sizes", async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.rootFromConsistencyProof(4, 4, some, [some]))
        .to.be.revertedWithCustomError(harness, "MerkleLogProofNotEmpty")
        .withArgs(1);
      expect(await harness.rootFromConsistencyProof(4, 4, some, [])).to.equal(some);
    });

    it("MerkleLogOldRootMismatch(rebuilt, fromRoot)", async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.rootFromConsistencyProof(3, 10, some, [...consistency.proof]))
        .to.be.revertedWithCustomError(harness, "MerkleLogOldRootMismatch")
        .withArgs(consistency.fromRoot, some);
    });
  });

  describe("properties: TypeScript and Solidity give identical verdicts (1–1,024 leaves)", () => {
    const inclusionCase = (seal: Hex32, p: InclusionProof) => ({
      seal,
      leafIndex: p.leafIndex,
      treeSize: p.treeSize,
      root: p.root,
      proof: [...p.proof],
    });
    const consistencyCase = (p: ConsistencyProof) => ({ ...p, proof: [...p.proof] });
    const picks = fc.array(
      fc.record({ a: fc.nat(), b: fc.nat(), pick: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }) }),
      { minLength: CASES_PER_RUN, maxLength: CASES_PER_RUN },
    );

    it("inclusion: honest proofs verify, mutants (incl. an inner node as a leaf) fail, on both sides", async () => {
      const { harness } = await loadFixture(deployHarness);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 1024 }), picks, async (size, cases) => {
          const batch: { seal: Hex32; proof: InclusionProof; expected: boolean; label: string }[] = [];
          for (const { a, b, pick } of cases) {
            const treeSize = 1 + (a % size);
            const index = b % treeSize;
            const honest = log.inclusionProof(index, treeSize);
            batch.push({ seal: seals[index]!, proof: honest, expected: true, label: "honest" });
            for (const m of inclusionMutants(honest, pick, rootOf, size)) {
              batch.push({ seal: seals[index]!, proof: m.proof, expected: false, label: m.label });
            }
            batch.push({
              seal: flipBit(seals[index]!, pick[0]!),
              proof: honest,
              expected: false,
              label: "other seal",
            });
            if (treeSize % 2 === 0 && index % 2 === 0) {
              // The level-1 node over leaves (index, index + 1) with the rest of the path.
              const inner = toHex32(
                nodeHash(
                  Buffer.from(log.leafHash(index).slice(2), "hex"),
                  Buffer.from(log.leafHash(index + 1).slice(2), "hex"),
                ),
              );
              const forged = {
                leafIndex: index / 2,
                treeSize: treeSize / 2,
                root: honest.root,
                proof: honest.proof.slice(1),
              };
              batch.push({ seal: inner, proof: forged, expected: false, label: "inner node as leaf" });
            }
          }
          const onChain = await harness.verifyInclusionBatch(
            batch.map((c) => inclusionCase(c.seal, c.proof)),
          );
          batch.forEach((c, i) => {
            const inTs = verifyInclusion(c.seal, c.proof);
            expect(inTs, `TS ${c.label}`).to.equal(c.expected);
            expect(onChain[i], `chain ${c.label} ${JSON.stringify(c.proof)}`).to.equal(inTs);
          });
        }),
        { numRuns: ON_CHAIN_RUNS },
      );
    });

    it("consistency: honest proofs verify, mutants fail, on both sides", async () => {
      const { harness } = await loadFixture(deployHarness);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 1024 }), picks, async (size, cases) => {
          const batch: { proof: ConsistencyProof; expected: boolean; label: string }[] = [];
          for (const { a, b, pick } of cases) {
            const toSize = 1 + (a % size);
            const fromSize = b % (toSize + 1);
            const honest = log.consistencyProof(fromSize, toSize);
            batch.push({ proof: honest, expected: true, label: "honest" });
            for (const m of consistencyMutants(honest, pick, rootOf, size)) {
              batch.push({ proof: m.proof, expected: false, label: m.label });
            }
          }
          const onChain = await harness.verifyConsistencyBatch(batch.map((c) => consistencyCase(c.proof)));
          batch.forEach((c, i) => {
            const inTs = verifyConsistency(c.proof);
            expect(inTs, `TS ${c.label}`).to.equal(c.expected);
            expect(onChain[i], `chain ${c.label} ${JSON.stringify(c.proof)}`).to.equal(inTs);
          });
        }),
        { numRuns: ON_CHAIN_RUNS },
      );
    });

    it("rootFromConsistencyProof gives the same new root on both sides", async () => {
      const { harness } = await loadFixture(deployHarness);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 1024 }), fc.nat(), async (toSize, b) => {
          const fromSize = 1 + (b % toSize);
          const p = log.consistencyProof(fromSize, toSize);
          expect(await harness.rootFromConsistencyProof(fromSize, toSize, p.fromRoot, [...p.proof])).to.equal(
            p.toRoot,
          );
        }),
        { numRuns: ON_CHAIN_RUNS },
      );
    });
  });
});
