import { expect } from "chai";
import { ethers } from "hardhat";
import fc from "fast-check";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { MerkleLog, toHex32, type Hex32 } from "@augur/scorer";
import type { AnchorRegistry } from "../typechain-types";
import { flipBit, sealsFor } from "../packages/scorer/src/merkle/testing";
import { snapshotEstimatedGas, snapshotGas, snapshotGasValue } from "./shared/gas";

const KEEPER_ROLE = ethers.id("KEEPER_ROLE");

async function deployRegistry() {
  const [admin, keeper, stranger] = await ethers.getSigners();
  const registry = await (
    await ethers.getContractFactory("AnchorRegistry")
  ).deploy(admin!.address, keeper!.address);
  return { registry, admin: admin!, keeper: keeper!, stranger: stranger! };
}

const seals = sealsFor(1024);
const log = new MerkleLog(seals);

/** The same log with leaf `at` replaced: what a history rewrite looks like. */
function forkedLog(at: number): MerkleLog {
  return new MerkleLog(seals.map((s, i) => (i === at ? flipBit(s, 0) : s)));
}

describe("AnchorRegistry", () => {
  describe("deployment and roles", () => {
    it("grants the admin and keeper roles", async () => {
      const { registry, admin, keeper, stranger } = await loadFixture(deployRegistry);
      expect(await registry.KEEPER_ROLE()).to.equal(KEEPER_ROLE);
      expect(await registry.hasRole(await registry.DEFAULT_ADMIN_ROLE(), admin.address)).to.equal(true);
      expect(await registry.hasRole(KEEPER_ROLE, keeper.address)).to.equal(true);
      expect(await registry.hasRole(KEEPER_ROLE, stranger.address)).to.equal(false);
      expect(await registry.hasRole(KEEPER_ROLE, admin.address)).to.equal(false);
      expect(await registry.anchorCount()).to.equal(0);
    });

    it("AnchorRegistryZeroAddress for a zero admin or keeper", async () => {
      const [a] = await ethers.getSigners();
      const factory = await ethers.getContractFactory("AnchorRegistry");
      await expect(factory.deploy(ethers.ZeroAddress, a!.address)).to.be.revertedWithCustomError(
        factory,
        "AnchorRegistryZeroAddress",
      );
      await expect(factory.deploy(a!.address, ethers.ZeroAddress)).to.be.revertedWithCustomError(
        factory,
        "AnchorRegistryZeroAddress",
      );
    });

    it("only the keeper posts; the admin can name another keeper", async () => {
      const { registry, admin, stranger } = await loadFixture(deployRegistry);
      await expect(registry.connect(stranger).post(1, log.root(1), []))
        .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
        .withArgs(stranger.address, KEEPER_ROLE);
      await expect(registry.connect(admin).post(1, log.root(1), []))
        .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
        .withArgs(admin.address, KEEPER_ROLE);
      await registry.connect(admin).grantRole(KEEPER_ROLE, stranger.address);
      await expect(registry.connect(stranger).post(1, log.root(1), [])).to.emit(registry, "Anchored");
    });
  });

  describe("post", () => {
    it("appends the first head without a proof and records when it was mined", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      const root = log.root(10);
      await expect(registry.connect(keeper).post(10, root, []))
        .to.emit(registry, "Anchored")
        .withArgs(0, 10, root);
      const block = await ethers.provider.getBlock("latest");
      const anchor = await registry.anchorAt(0);
      expect(anchor.treeSize).to.equal(10);
      expect(anchor.root).to.equal(root);
      expect(anchor.timestamp).to.equal(block!.timestamp);
      expect(anchor.blockNumber).to.equal(block!.number);
      expect(await registry.latest()).to.deep.equal(anchor);
      expect(await registry.anchorCount()).to.equal(1);
      expect(await registry.rootOf(10)).to.equal(root);
      expect(await registry.rootOf(11)).to.equal(ethers.ZeroHash);
    });

    it("appends a later head proven consistent with the latest", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(10, log.root(10), []);
      await time.increase(3600);
      const p = log.consistencyProof(10, 700);
      await expect(registry.connect(keeper).post(700, p.toRoot, [...p.proof]))
        .to.emit(registry, "Anchored")
        .withArgs(1, 700, p.toRoot);
      expect((await registry.latest()).treeSize).to.equal(700);
      expect((await registry.anchorAt(0)).root).to.equal(log.root(10));
      expect((await registry.anchorAt(1)).timestamp).to.be.greaterThan(
        (await registry.anchorAt(0)).timestamp,
      );
    });

    it("AnchorRegistryAlreadyPosted(index, treeSize, root) for the latest head again, adding nothing", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(10, log.root(10), []);
      await expect(registry.connect(keeper).post(10, log.root(10), []))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryAlreadyPosted")
        .withArgs(0, 10, log.root(10));
      expect(await registry.anchorCount()).to.equal(1);
    });

    it("AnchorRegistryConflictingRoot(treeSize, root, postedRoot) for the latest size with another root", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(10, log.root(10), []);
      const other = forkedLog(3).root(10);
      await expect(registry.connect(keeper).post(10, other, []))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryConflictingRoot")
        .withArgs(10, other, log.root(10));
    });

    it("AnchorRegistryTreeSizeDecreased(treeSize, latestTreeSize) for a smaller head, even an old one", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(10, log.root(10), []);
      const p = log.consistencyProof(10, 20);
      await registry.connect(keeper).post(20, p.toRoot, [...p.proof]);
      await expect(registry.connect(keeper).post(10, log.root(10), []))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryTreeSizeDecreased")
        .withArgs(10, 20);
      await expect(registry.connect(keeper).post(19, log.root(19), []))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryTreeSizeDecreased")
        .withArgs(19, 20);
    });

    it("AnchorRegistryInconsistentHead(fromSize, treeSize, root) for a rewrite, a bad proof, or a first head with a proof", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await expect(registry.connect(keeper).post(10, log.root(10), [log.root(5)]))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryInconsistentHead")
        .withArgs(0, 10, log.root(10));
      await registry.connect(keeper).post(10, log.root(10), []);
      // A log that changed leaf 3 and grew: its honest proof cannot rebuild the posted root.
      const fork = forkedLog(3).consistencyProof(10, 40);
      await expect(registry.connect(keeper).post(40, fork.toRoot, [...fork.proof]))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryInconsistentHead")
        .withArgs(10, 40, fork.toRoot);
      const honest = log.consistencyProof(10, 40);
      await expect(registry.connect(keeper).post(40, honest.toRoot, [...honest.proof.slice(1)]))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryInconsistentHead")
        .withArgs(10, 40, honest.toRoot);
      await expect(registry.connect(keeper).post(40, honest.toRoot, []))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryInconsistentHead")
        .withArgs(10, 40, honest.toRoot);
    });

    it("AnchorRegistryEmptyTree and AnchorRegistryZeroRoot", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await expect(registry.connect(keeper).post(0, log.root(0), [])).to.be.revertedWithCustomError(
        registry,
        "AnchorRegistryEmptyTree",
      );
      await expect(registry.connect(keeper).post(5, ethers.ZeroHash, [])).to.be.revertedWithCustomError(
        registry,
        "AnchorRegistryZeroRoot",
      );
    });
  });

  describe("reads", () => {
    it("AnchorRegistryIndexOutOfRange(index, count) from anchorAt and from latest before any post", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await expect(registry.latest())
        .to.be.revertedWithCustomError(registry, "AnchorRegistryIndexOutOfRange")
        .withArgs(0, 0);
      await registry.connect(keeper).post(3, log.root(3), []);
      await expect(registry.anchorAt(1))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryIndexOutOfRange")
        .withArgs(1, 1);
    });

    it("verifyInclusion checks a seal against the posted head of that size", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(100, log.root(100), []);
      const p = log.inclusionProof(42, 100);
      expect(await registry.verifyInclusion(seals[42]!, 42, 100, [...p.proof])).to.equal(true);
      expect(await registry.verifyInclusion(seals[43]!, 42, 100, [...p.proof])).to.equal(false);
      expect(await registry.verifyInclusion(seals[42]!, 43, 100, [...p.proof])).to.equal(false);
      expect(await registry.verifyInclusion(seals[42]!, 42, 100, [...p.proof.slice(1)])).to.equal(false);
      expect(await registry.verifyInclusion(seals[42]!, 100, 100, [...p.proof])).to.equal(false);
    });

    it("indexOf finds the head of a posted size", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      const sizes = [3, 7, 8, 100, 513, 1000];
      for (const [i, size] of sizes.entries()) {
        const from = sizes[i - 1] ?? 0;
        await registry
          .connect(keeper)
          .post(size, log.root(size), [...log.consistencyProof(from, size).proof]);
      }
      for (const [i, size] of sizes.entries()) expect(await registry.indexOf(size)).to.equal(i);
    });

    it("AnchorRegistryUnknownTreeSize(treeSize) when no head of that size was posted", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await expect(registry.indexOf(5))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryUnknownTreeSize")
        .withArgs(5);
      await registry.connect(keeper).post(100, log.root(100), []);
      await expect(registry.indexOf(99))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryUnknownTreeSize")
        .withArgs(99);
      const p = log.inclusionProof(42, 99);
      await expect(registry.verifyInclusion(seals[42]!, 42, 99, [...p.proof]))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryUnknownTreeSize")
        .withArgs(99);
    });
  });

  describe("append-only rule (model-based; model = the TypeScript log)", () => {
    type Model = { heads: { size: number; root: Hex32 }[] };
    type Real = { registry: AnchorRegistry; keeper: Awaited<ReturnType<typeof deployRegistry>>["keeper"] };
    const latest = (m: Model) => m.heads[m.heads.length - 1];

    /** After every command: the registry holds exactly the model's heads, in order. */
    async function checkInvariants(m: Model, r: Real) {
      expect(await r.registry.anchorCount()).to.equal(m.heads.length);
      const top = latest(m);
      if (top) {
        const onChain = await r.registry.latest();
        expect([Number(onChain.treeSize), onChain.root]).to.deep.equal([top.size, top.root]);
      }
    }

    class HonestPost implements fc.AsyncCommand<Model, Real> {
      constructor(readonly grow: number) {}
      check = (m: Readonly<Model>) => (latest(m as Model)?.size ?? 0) + this.grow <= log.size;
      async run(m: Model, r: Real) {
        const from = latest(m)?.size ?? 0;
        const to = from + this.grow;
        const p = log.consistencyProof(from, to);
        await expect(r.registry.connect(r.keeper).post(to, p.toRoot, [...p.proof]))
          .to.emit(r.registry, "Anchored")
          .withArgs(m.heads.length, to, p.toRoot);
        m.heads.push({ size: to, root: p.toRoot });
        await checkInvariants(m, r);
      }
      toString = () => `post(+${this.grow})`;
    }

    class RePost implements fc.AsyncCommand<Model, Real> {
      check = (m: Readonly<Model>) => m.heads.length > 0;
      async run(m: Model, r: Real) {
        const top = latest(m)!;
        await expect(r.registry.connect(r.keeper).post(top.size, top.root, []))
          .to.be.revertedWithCustomError(r.registry, "AnchorRegistryAlreadyPosted")
          .withArgs(m.heads.length - 1, top.size, top.root);
        await checkInvariants(m, r);
      }
      toString = () => "re-post";
    }

    /** Post a head that changed leaf `at` (of the posted prefix), at a size `delta` around the latest. */
    class Rewrite implements fc.AsyncCommand<Model, Real> {
      constructor(
        readonly at: number,
        readonly delta: number,
      ) {}
      check = (m: Readonly<Model>) => m.heads.length > 0;
      async run(m: Model, r: Real) {
        const top = latest(m)!;
        const size = Math.min(log.size, Math.max(1, top.size + this.delta));
        const at = this.at % Math.min(size, top.size);
        const fork = forkedLog(at);
        const tx = r.registry
          .connect(r.keeper)
          .post(size, fork.root(size), [...fork.consistencyProof(Math.min(top.size, size), size).proof]);
        if (size === top.size) {
          await expect(tx)
            .to.be.revertedWithCustomError(r.registry, "AnchorRegistryConflictingRoot")
            .withArgs(size, fork.root(size), top.root);
        } else if (size < top.size) {
          await expect(tx)
            .to.be.revertedWithCustomError(r.registry, "AnchorRegistryTreeSizeDecreased")
            .withArgs(size, top.size);
        } else {
          await expect(tx)
            .to.be.revertedWithCustomError(r.registry, "AnchorRegistryInconsistentHead")
            .withArgs(top.size, size, fork.root(size));
        }
        await checkInvariants(m, r);
      }
      toString = () => `rewrite(leaf ${this.at}, ${this.delta >= 0 ? "+" : ""}${this.delta})`;
    }

    /** An honest new head with a corrupted proof: a flipped bit in one element, or one dropped. */
    class WrongProof implements fc.AsyncCommand<Model, Real> {
      constructor(
        readonly grow: number,
        readonly which: number,
        readonly drop: boolean,
      ) {}
      check = (m: Readonly<Model>) => m.heads.length > 0 && latest(m as Model)!.size + this.grow <= log.size;
      async run(m: Model, r: Real) {
        const top = latest(m)!;
        const to = top.size + this.grow;
        const p = log.consistencyProof(top.size, to);
        const i = this.which % Math.max(1, p.proof.length);
        const proof = this.drop
          ? p.proof.filter((_, j) => j !== i)
          : p.proof.map((x, j) => (j === i ? flipBit(x, this.which) : x));
        const tx = r.registry
          .connect(r.keeper)
          .post(to, p.toRoot, [...(p.proof.length === 0 ? [p.toRoot] : proof)]);
        await expect(tx)
          .to.be.revertedWithCustomError(r.registry, "AnchorRegistryInconsistentHead")
          .withArgs(top.size, to, p.toRoot);
        await checkInvariants(m, r);
      }
      toString = () => `wrong-proof(+${this.grow}, ${this.drop ? "drop" : "flip"} ${this.which})`;
    }

    /** Any seal of any posted head verifies on chain; an unposted size is refused. */
    class CheckInclusion implements fc.AsyncCommand<Model, Real> {
      constructor(
        readonly head: number,
        readonly leaf: number,
      ) {}
      check = (m: Readonly<Model>) => m.heads.length > 0;
      async run(m: Model, r: Real) {
        const { size } = m.heads[this.head % m.heads.length]!;
        const index = this.leaf % size;
        const p = log.inclusionProof(index, size);
        expect(await r.registry.verifyInclusion(seals[index]!, index, size, [...p.proof])).to.equal(true);
        expect(await r.registry.indexOf(size)).to.equal(m.heads.findIndex((h) => h.size === size));
        expect(
          await r.registry.verifyInclusion(flipBit(seals[index]!, 7), index, size, [...p.proof]),
        ).to.equal(false);
        if (!m.heads.some((h) => h.size === size + 1) && size < log.size) {
          await expect(
            r.registry.verifyInclusion(seals[index]!, index, size + 1, [
              ...log.inclusionProof(index, size + 1).proof,
            ]),
          )
            .to.be.revertedWithCustomError(r.registry, "AnchorRegistryUnknownTreeSize")
            .withArgs(size + 1);
        }
      }
      toString = () => `check(head ${this.head}, leaf ${this.leaf})`;
    }

    // Every command is one to three calls on the in-process chain (a few ms each): FC_RUNS / 10
    // runs of up to 16 commands (100 in npm test, 1,000 in test:deep) take ~15 s here.
    const runs = Math.max(10, Math.ceil((fc.readConfigureGlobal().numRuns ?? 100) / 10));

    it("accepts exactly the honest extensions, refuses every rewrite, and never loses a head", async () => {
      const commands = fc.commands(
        [
          fc.integer({ min: 1, max: 200 }).map((g) => new HonestPost(g)),
          fc.constant(new RePost()),
          fc.tuple(fc.nat(), fc.integer({ min: -50, max: 50 })).map(([at, d]) => new Rewrite(at, d)),
          fc
            .tuple(fc.integer({ min: 1, max: 200 }), fc.nat(), fc.boolean())
            .map(([g, w, d]) => new WrongProof(g, w, d)),
          fc.tuple(fc.nat(), fc.nat()).map(([h, l]) => new CheckInclusion(h, l)),
        ],
        { maxCommands: 16 },
      );
      await fc.assert(
        fc.asyncProperty(commands, async (cmds) => {
          const { registry, keeper } = await loadFixture(deployRegistry);
          await fc.asyncModelRun(() => ({ model: { heads: [] }, real: { registry, keeper } }), cmds);
        }),
        { numRuns: runs },
      );
    });
  });

  describe("final notice", () => {
    const FINAL = ethers.id("the final notice record");

    it("the accounts post one final message and stop: the final notice closes the registry", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(10, log.root(10), []);
      const p = log.consistencyProof(10, 12);
      await registry.connect(keeper).post(12, p.toRoot, [...p.proof]);
      expect(await registry.finalNotice()).to.equal(ethers.ZeroHash);
      const tx = registry.connect(keeper).postFinalNotice(FINAL);
      await expect(tx).to.emit(registry, "FinalNotice").withArgs(FINAL, 1, 12);
      await snapshotGas("AnchorRegistry.postFinalNotice", tx);
      expect(await registry.finalNotice()).to.equal(FINAL);
      // Nothing after it: no head, no second notice; what was posted stays provable.
      const q = log.consistencyProof(12, 20);
      await expect(registry.connect(keeper).post(20, q.toRoot, [...q.proof]))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryClosed")
        .withArgs(FINAL);
      await expect(registry.connect(keeper).postFinalNotice(ethers.id("another")))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryClosed")
        .withArgs(FINAL);
      expect(await registry.anchorCount()).to.equal(2);
      const proof = log.inclusionProof(11, 12).proof;
      expect(await registry.verifyInclusion(seals[11]!, 11, 12, [...proof])).to.equal(true);
    });

    it("refuses a zero seal, a notice before any head, and anyone but the keeper", async () => {
      const { registry, keeper, admin } = await loadFixture(deployRegistry);
      await expect(registry.connect(keeper).postFinalNotice(FINAL)).to.be.revertedWithCustomError(
        registry,
        "AnchorRegistryNothingAnchored",
      );
      await registry.connect(keeper).post(10, log.root(10), []);
      await expect(registry.connect(keeper).postFinalNotice(ethers.ZeroHash)).to.be.revertedWithCustomError(
        registry,
        "AnchorRegistryZeroSeal",
      );
      await expect(registry.connect(admin).postFinalNotice(FINAL))
        .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
        .withArgs(admin.address, KEEPER_ROLE);
      expect(await registry.finalNotice()).to.equal(ethers.ZeroHash);
    });
  });

  describe("gas (log of 1,000,000 seals)", () => {
    // Seals need only be distinct 32-byte values here; building 1M of them by hashing would
    // double the set-up time for nothing.
    const N = 1_000_000;
    const FROM = 999_000; // an hourly keeper appending 1,000 seals
    let big: MerkleLog;
    before(function () {
      big = new MerkleLog();
      for (let i = 0; i < N; i++) big.append(toHex32(Buffer.from(i.toString(16).padStart(64, "0"), "hex")));
    });

    it("post with a consistency proof 999,000 → 1,000,000, and verifyInclusion against that head", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      await registry.connect(keeper).post(FROM, big.root(FROM), []);
      const p = big.consistencyProof(FROM, N);
      const tx = registry.connect(keeper).post(N, p.toRoot, [...p.proof]);
      const gasUsed = await snapshotGas("AnchorRegistry.post (999,000 -> 1,000,000; tx)", tx);
      const sent = await (await tx).getTransaction();
      const data = ethers.getBytes(sent!.data);
      const calldataGas = data.reduce((sum, byte) => sum + (byte === 0 ? 4 : 16), 0);
      snapshotGasValue(
        "AnchorRegistry.post (999,000 -> 1,000,000; execution)",
        gasUsed - 21_000 - calldataGas,
      );
      expect((await registry.latest()).treeSize).to.equal(N);
      // The targets are execution gas: the 21,000 intrinsic gas and the calldata of the proof are
      // paid by any transaction whatever the contract does (see docs/merkle-log.md, Figures).
      expect(gasUsed - 21_000 - calldataGas).to.be.at.most(80_000);

      const probe = await (await ethers.getContractFactory("AnchorGasProbe")).deploy();
      const index = 765_432;
      const seal = toHex32(Buffer.from(index.toString(16).padStart(64, "0"), "hex"));
      const inclusion = big.inclusionProof(index, N);
      const [included, executionGas] = await probe.measureVerifyInclusion(registry, seal, index, N, [
        ...inclusion.proof,
      ]);
      expect(included).to.equal(true);
      expect(Number(executionGas)).to.be.at.most(30_000);
      snapshotGasValue(
        "AnchorRegistry.verifyInclusion (1,000,000 leaves; call from a contract)",
        Number(executionGas),
      );
      const estimate = await registry.verifyInclusion.estimateGas(seal, index, N, [...inclusion.proof]);
      snapshotEstimatedGas(
        "AnchorRegistry.verifyInclusion (1,000,000 leaves; as a tx)",
        estimate,
        registry.interface.encodeFunctionData("verifyInclusion", [seal, index, N, [...inclusion.proof]]),
      );
      console.log(
        `      consistency proof ${p.proof.length} nodes; post tx ${gasUsed} (execution ${gasUsed - 21_000 - calldataGas}); ` +
          `inclusion proof ${inclusion.proof.length} nodes; verifyInclusion ${executionGas} from a contract, ${estimate} as a tx`,
      );
    });

    it("post with the longest consistency proof into 1,000,000 leaves (524,287 → 1,000,000) stays within 80k", async () => {
      const { registry, keeper } = await loadFixture(deployRegistry);
      const from = 524_287; // 21 proof nodes: the most any old size needs to reach 1,000,000
      await registry.connect(keeper).post(from, big.root(from), []);
      const p = big.consistencyProof(from, N);
      expect(p.proof.length).to.equal(21);
      const tx = registry.connect(keeper).post(N, p.toRoot, [...p.proof]);
      const gasUsed = await snapshotGas("AnchorRegistry.post (524,287 -> 1,000,000; tx)", tx);
      const data = ethers.getBytes((await (await tx).getTransaction())!.data);
      const execution = gasUsed - 21_000 - data.reduce((sum, byte) => sum + (byte === 0 ? 4 : 16), 0);
      snapshotGasValue("AnchorRegistry.post (524,287 -> 1,000,000; execution)", execution);
      expect(execution).to.be.at.most(80_000);
      console.log(
        `      worst-case consistency proof ${p.proof.length} nodes; post tx ${gasUsed} (execution ${execution})`,
      );
    });
  });
});
