import { expect } from "chai";
import { Contract, NonceManager, Wallet } from "ethers";
import { ANCHOR_REGISTRY_ABI } from "../chain/abi/anchor-registry";
import {
  appendSeals,
  deployRegistry,
  HARDHAT_KEYS,
  sharedHardhatNode,
  type HardhatNode,
} from "../../test-support/keeper/testing";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { ReorgTooDeepError } from "./errors";
import { registryIndexer } from "./registry";

describe("chain indexer: AnchorRegistry events from a hardhat node", () => {
  let node: HardhatNode;
  const stores: Store[] = [];

  before(async () => {
    node = await sharedHardhatNode();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  after(async () => {
    await node?.stop();
  });

  for (const backend of testBackends()) {
    describe(`on ${backend.name}`, () => {
      /** A store with a log of 12 seals, a fresh registry, and a way to post heads of that log. */
      async function setup() {
        const store = await backend.open();
        stores.push(store);
        await appendSeals(store, "indexed", 12);
        const keeper = new NonceManager(new Wallet(HARDHAT_KEYS[3], node.provider));
        const startBlock = await node.provider.getBlockNumber();
        const address = await deployRegistry(node.provider, await keeper.getAddress());
        const contract = new Contract(address, ANCHOR_REGISTRY_ABI, keeper);
        let posted = 0;
        const post = async (size: number) => {
          const proof = posted === 0 ? [] : await store.log.consistencyProof(store.db, posted, size);
          const tx = await contract
            .getFunction("post")
            .send(size, await store.log.root(store.db, size), proof);
          await tx.wait();
          posted = size;
          keeper.reset(); // nonces come from the node again (a revert rewinds them)
        };
        const rewindTo = (size: number) => (posted = size);
        const indexer = (confirmations: number) =>
          registryIndexer({
            store,
            provider: node.provider,
            chainId: 31337,
            registry: address,
            startBlock,
            confirmations,
            batchBlocks: 3,
            now: () => 1_900_000_000,
          });
        const rows = async () =>
          (await store.db.selectFrom("anchor_events").selectAll().orderBy("anchor_index").execute()).map(
            (r) => [r.anchor_index, r.tree_size],
          );
        const anchors = async () =>
          (await store.db.selectFrom("anchors").selectAll().orderBy("anchor_index").execute()).map((r) => [
            r.anchor_index,
            r.tree_size,
          ]);
        return { store, address, post, rewindTo, indexer, rows, anchors };
      }

      it("stores Anchored events from the start block, records confirmed heads once, and reads nothing twice", async () => {
        const t = await setup();
        await t.post(4);
        await t.post(9);
        const first = await t.indexer(1).poll();
        expect(first.stored).to.equal(2);
        expect(first.promoted).to.equal(2);
        expect(await t.rows()).to.deep.equal([
          [0, 4],
          [1, 9],
        ]);
        const anchor = await t.store.db
          .selectFrom("anchors")
          .selectAll()
          .where("anchor_index", "=", 1)
          .executeTakeFirstOrThrow();
        const receipt = await node.provider.getTransactionReceipt(anchor.tx_hash);
        expect(anchor).to.include({
          tree_size: 9,
          chain_id: 31337,
          registry: t.address,
          block_number: receipt!.blockNumber,
        });
        expect(anchor.root).to.equal(await t.store.log.root(t.store.db, 9));
        expect(anchor.block_hash).to.equal(receipt!.blockHash.toLowerCase());

        const again = await t.indexer(1).poll();
        expect([again.stored, again.promoted, again.rolledBack]).to.deep.equal([0, 0, 0]);
        expect(await t.anchors()).to.deep.equal([
          [0, 4],
          [1, 9],
        ]);
      });

      it("waits for the confirmations before recording an anchor", async () => {
        const t = await setup();
        await t.post(5);
        const early = await t.indexer(3).poll();
        expect([early.stored, early.promoted]).to.deep.equal([1, 0]);
        expect(await t.anchors()).to.deep.equal([]);
        await node.provider.send("hardhat_mine", ["0x2"]);
        expect((await t.indexer(3).poll()).promoted).to.equal(1);
        expect(await t.anchors()).to.deep.equal([[0, 5]]);
      });

      it("rolls back the events of a reorganised block and reads the new chain's instead, without duplicates", async () => {
        const t = await setup();
        await t.post(3);
        const snapshot = (await node.provider.send("evm_snapshot", [])) as string;
        await t.post(6); // index 1 = size 6, in a block about to be reorganised away
        await t.indexer(4).poll();
        expect(await t.rows()).to.deep.equal([
          [0, 3],
          [1, 6],
        ]);

        // The reorg: back to before size 6 was posted, then a different chain of more blocks in
        // which index 1 is size 11.
        await node.provider.send("evm_revert", [snapshot]);
        t.rewindTo(3);
        await node.provider.send("hardhat_mine", ["0x1"]);
        await t.post(11);
        await node.provider.send("hardhat_mine", ["0x1"]);
        const after = await t.indexer(4).poll();
        expect(after.rolledBack).to.equal(1);
        expect(await t.rows()).to.deep.equal([
          [0, 3],
          [1, 11],
        ]);
        const events = await t.store.db.selectFrom("anchor_events").select("tx_hash").execute();
        expect(new Set(events.map((e) => e.tx_hash)).size).to.equal(2);

        await node.provider.send("hardhat_mine", ["0x4"]);
        await t.indexer(4).poll();
        expect(await t.anchors()).to.deep.equal([
          [0, 3],
          [1, 11],
        ]);
      });

      it("refuses to roll back a block whose anchor was already recorded (reorg deeper than the confirmations)", async () => {
        const t = await setup();
        const snapshot = (await node.provider.send("evm_snapshot", [])) as string;
        await t.post(2);
        expect((await t.indexer(1).poll()).promoted).to.equal(1);
        await node.provider.send("evm_revert", [snapshot]);
        t.rewindTo(0);
        await node.provider.send("hardhat_mine", ["0x3"]);
        let caught: unknown;
        try {
          await t.indexer(1).poll();
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(ReorgTooDeepError);
        expect(await t.anchors()).to.deep.equal([[0, 2]]); // the append-only row is untouched
      });
    });
  }
});
