import { expect } from "chai";
import { createHash } from "node:crypto";
import { toHex32, type Hex32 } from "../hex";
import { EMPTY_ROOT } from "./hashing";
import { MerkleLog } from "./log";
import { rootFromInclusionProof, verifyConsistency, verifyLeafHashInclusion } from "./verify";

// Published RFC 6962 test vectors of the Certificate Transparency implementations, as kept in
// github.com/transparency-dev/merkle (testonly/constants.go: leaf inputs and roots for sizes
// 0–8; proof/verify_test.go: inclusion and consistency proofs; the same values appear in
// google/certificate-transparency's merkle_tree_test.cc). Their leaves are raw byte strings of
// varying length, not 32-byte seals, so the leaf hashes sha256(0x00 ‖ data) are computed here
// and the log is fed through appendLeafHash; everything above the leaves is the same code path
// that seals take.
const LEAF_INPUTS = [
  "",
  "00",
  "10",
  "2021",
  "3031",
  "40414243",
  "5051525354555657",
  "606162636465666768696a6b6c6d6e6f",
];

const ROOTS: Hex32[] = [
  EMPTY_ROOT,
  "0x6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "0xfac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "0xaeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "0xd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "0x4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "0x76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "0xddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "0x5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

// Leaf indices are 0-based here (the Go file lists them 1-based).
const INCLUSION: { leafIndex: number; treeSize: number; proof: Hex32[] }[] = [
  { leafIndex: 0, treeSize: 1, proof: [] },
  {
    leafIndex: 0,
    treeSize: 8,
    proof: [
      "0x96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "0x5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "0x6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    leafIndex: 5,
    treeSize: 8,
    proof: [
      "0xbc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "0xca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "0xd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  {
    leafIndex: 2,
    treeSize: 3,
    proof: ["0xfac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"],
  },
  {
    leafIndex: 1,
    treeSize: 5,
    proof: [
      "0x6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "0x5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "0xbc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
];

const CONSISTENCY: { fromSize: number; toSize: number; proof: Hex32[] }[] = [
  { fromSize: 1, toSize: 1, proof: [] },
  {
    fromSize: 1,
    toSize: 8,
    proof: [
      "0x96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "0x5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "0x6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    fromSize: 6,
    toSize: 8,
    proof: [
      "0x0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "0xca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "0xd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  {
    fromSize: 2,
    toSize: 5,
    proof: [
      "0x5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "0xbc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
  {
    fromSize: 6,
    toSize: 7,
    proof: [
      "0x0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "0xb08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "0xd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
];

const leafHashOf = (data: string): Buffer =>
  createHash("sha256")
    .update(Buffer.concat([Buffer.of(0), Buffer.from(data, "hex")]))
    .digest();

function vectorLog(): MerkleLog {
  const log = new MerkleLog();
  for (const data of LEAF_INPUTS) log.appendLeafHash(leafHashOf(data));
  return log;
}

const flipBit = (hash: Hex32, bit: number): Hex32 => {
  const bytes = Buffer.from(hash.slice(2), "hex");
  bytes[bit >> 3]! ^= 1 << (bit & 7);
  return toHex32(bytes);
};

describe("merkle: RFC 6962 test vectors (transparency-dev/merkle)", () => {
  it("the empty tree hashes to sha256 of the empty string", () => {
    expect(new MerkleLog().root()).to.equal(ROOTS[0]);
    expect(EMPTY_ROOT).to.equal(`0x${createHash("sha256").digest("hex")}`);
  });

  it("leaf hashes match the published level-0 node hashes", () => {
    expect(toHex32(leafHashOf(""))).to.equal(ROOTS[1]);
    expect(vectorLog().leafHash(0)).to.equal(ROOTS[1]);
  });

  it("gives the published root for every size 0–8, from one log", () => {
    const log = vectorLog();
    ROOTS.forEach((root, size) => expect(log.root(size), `size ${size}`).to.equal(root));
  });

  for (const v of INCLUSION) {
    it(`inclusion of leaf ${v.leafIndex} in size ${v.treeSize}: same proof, verifies, corruptions fail`, () => {
      const log = vectorLog();
      const built = log.inclusionProof(v.leafIndex, v.treeSize);
      expect(built.proof).to.deep.equal(v.proof);
      expect(built.root).to.equal(ROOTS[v.treeSize]);
      const leaf = log.leafHash(v.leafIndex);
      expect(rootFromInclusionProof(leaf, v.leafIndex, v.treeSize, v.proof)).to.equal(ROOTS[v.treeSize]);
      const honest = {
        leafIndex: v.leafIndex,
        treeSize: v.treeSize,
        root: ROOTS[v.treeSize]!,
        proof: v.proof,
      };
      expect(verifyLeafHashInclusion(leaf, honest)).to.equal(true);
      const wrong = [
        { ...honest, leafIndex: v.leafIndex + 1 },
        { ...honest, leafIndex: v.leafIndex ^ 2 },
        { ...honest, treeSize: v.treeSize * 2 },
        { ...honest, treeSize: Math.floor(v.treeSize / 2) },
        { ...honest, root: EMPTY_ROOT },
        { ...honest, proof: [...v.proof, honest.root] },
        { ...honest, proof: [honest.root, ...v.proof] },
        ...v.proof.map((_, i) => ({
          ...honest,
          proof: v.proof.map((p, j) => (i === j ? flipBit(p, 3) : p)),
        })),
        ...(v.proof.length > 0 ? [{ ...honest, proof: v.proof.slice(0, -1) }] : []),
      ];
      for (const probe of wrong)
        expect(verifyLeafHashInclusion(leaf, probe), JSON.stringify(probe)).to.equal(false);
      expect(verifyLeafHashInclusion(flipBit(leaf, 0), honest)).to.equal(false);
    });
  }

  for (const v of CONSISTENCY) {
    it(`consistency ${v.fromSize} → ${v.toSize}: same proof, verifies, corruptions fail`, () => {
      const built = vectorLog().consistencyProof(v.fromSize, v.toSize);
      expect(built.proof).to.deep.equal(v.proof);
      const honest = {
        fromSize: v.fromSize,
        toSize: v.toSize,
        fromRoot: ROOTS[v.fromSize]!,
        toRoot: ROOTS[v.toSize]!,
        proof: v.proof,
      };
      expect(built).to.deep.equal(honest);
      expect(verifyConsistency(honest)).to.equal(true);
      if (v.proof.length === 0) return;
      const wrong = [
        { ...honest, fromSize: v.fromSize - 1 },
        { ...honest, fromSize: v.fromSize + 1 },
        { ...honest, fromSize: v.fromSize ^ 2 },
        { ...honest, toSize: v.toSize * 2 },
        { ...honest, toSize: Math.floor(v.toSize / 2) },
        { ...honest, fromRoot: honest.toRoot, toRoot: honest.fromRoot },
        { ...honest, proof: [] },
        { ...honest, proof: [...v.proof, honest.fromRoot] },
        { ...honest, proof: [...v.proof, honest.toRoot] },
        { ...honest, proof: [honest.fromRoot, ...v.proof] },
        { ...honest, proof: [v.proof[0]!, ...v.proof] },
        { ...honest, proof: v.proof.slice(0, -1) },
        ...v.proof.map((_, i) => ({
          ...honest,
          proof: v.proof.map((p, j) => (i === j ? flipBit(p, 4) : p)),
        })),
      ];
      for (const probe of wrong) expect(verifyConsistency(probe), JSON.stringify(probe)).to.equal(false);
    });
  }
});
