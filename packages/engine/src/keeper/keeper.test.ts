import { expect } from "chai";
import { Wallet } from "ethers";
import { MerkleLog } from "@augur/scorer";
import { openStore, type Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { KeeperDivergedError, KeeperUnauthorizedError } from "./errors";
import { storedConsistencyProof } from "./consistency";
import { journal, openNonce } from "../store/queries/keeper-journal";
import { ChainKeeper } from "./keeper";
import { RegistryReader } from "./registry";
import {
  appendSeals,
  deployRegistry,
  HARDHAT_KEYS,
  headOf,
  sharedHardhatNode,
  type HardhatNode,
} from "../../test-support/keeper/testing";

describe("keeper against a hardhat node", function () {
  let node: HardhatNode;
  let clock = 1_900_000_000;
  const keeperKey = HARDHAT_KEYS[1];
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
      async function fresh(): Promise<{ store: Store; registry: RegistryReader }> {
        const store = await backend.open();
        stores.push(store);
        const signer = new Wallet(keeperKey);
        const address = await deployRegistry(node.provider, signer.address);
        return { store, registry: new RegistryReader(node.provider, address, 31337) };
      }

      function keeperFor(
        store: Store,
        registry: RegistryReader,
        extra: Partial<ConstructorParameters<typeof ChainKeeper>[0]> = {},
      ) {
        return new ChainKeeper({
          store,
          provider: node.provider,
          signer: new Wallet(keeperKey, node.provider),
          registry,
          confirmations: 1,
          replaceAfterSeconds: 60,
          waitMs: 10_000,
          pollMs: 50,
          now: () => clock,
          ...extra,
        });
      }

      const sender = new Wallet(keeperKey).address.toLowerCase();
      const nonceOf = () => node.provider.getTransactionCount(sender, "latest");

      it("takes the consistency proof from the stored log, equal to MerkleLog's and self-checked", async () => {
        const store = await backend.open();
        stores.push(store);
        const seals = await appendSeals(store, "proofs", 37);
        const reference = new MerkleLog(seals);
        for (const [m, n] of [
          [1, 37],
          [5, 37],
          [8, 16],
          [13, 37],
          [36, 37],
          [37, 37],
          [3, 7],
        ]) {
          const stored = await storedConsistencyProof(store, m!, n!);
          expect(stored.proof, `${m} → ${n}`).to.deep.equal(reference.consistencyProof(m!, n!).proof);
        }
      });

      it("posts the first head, then each new head with a consistency proof; a rerun posts nothing", async () => {
        const { store, registry } = await fresh();
        const keeper = keeperFor(store, registry);
        await appendSeals(store, "a", 5);
        const first = await headOf(store);
        const before = await nonceOf();
        const r1 = await keeper.anchor(first);
        expect(r1).to.include({ anchorIndex: 0, treeSize: 5, root: first.root, chainId: 31337 });
        await appendSeals(store, "b", 8);
        const second = await headOf(store);
        const r2 = await keeper.anchor(second);
        expect(r2).to.include({ anchorIndex: 1, treeSize: 13, root: second.root });
        expect(await registry.head()).to.deep.include({ count: 2, treeSize: 13, root: second.root });
        expect(await nonceOf()).to.equal(before + 2);

        // Idempotent: the same head again sends nothing and answers the same receipt.
        const again = await keeper.anchor(second);
        expect(again).to.deep.equal(r2);
        expect(await nonceOf()).to.equal(before + 2);
        const rows = await journal(store.db, { chainId: 31337, registry: registry.address, sender });
        expect(rows.map((r) => r.status)).to.deep.equal([
          "simulated",
          "signed",
          "broadcast",
          "mined",
          "simulated",
          "signed",
          "broadcast",
          "mined",
        ]);
        const signed = rows.filter((r) => r.status === "signed");
        expect(signed.map((r) => r.nonce)).to.deep.equal([before, before + 1]);
        expect(signed.every((r) => r.raw_tx?.startsWith("0x02"))).to.equal(true);
      });

      it("finds a head another keeper (a restored database) already posted and records it without posting", async () => {
        const { store, registry } = await fresh();
        await appendSeals(store, "same", 4);
        await keeperFor(store, registry).anchor(await headOf(store));
        // The twin is SQLite on either backend: two PostgreSQL test stores open at once trip
        // Kysely's migration-table check (it looks across schemas).
        const twin = await openStore({ kind: "sqlite", file: ":memory:" });
        stores.push(twin);
        await appendSeals(twin, "same", 4);
        const before = await nonceOf();
        const receipt = await keeperFor(twin, registry).anchor(await headOf(twin));
        expect(receipt).to.include({ anchorIndex: 0, treeSize: 4 });
        expect(await nonceOf()).to.equal(before);
        const rows = await journal(twin.db, { chainId: 31337, registry: registry.address, sender });
        expect(rows.map((r) => r.status)).to.deep.equal(["skipped"]);
      });

      it("refuses to post over a history the log does not extend, and sends nothing", async () => {
        const { store, registry } = await fresh();
        await appendSeals(store, "ours", 3);
        await keeperFor(store, registry).anchor(await headOf(store));
        const other = await openStore({ kind: "sqlite", file: ":memory:" });
        stores.push(other);
        await appendSeals(other, "theirs", 6);
        const before = await nonceOf();
        let caught: unknown;
        try {
          await keeperFor(other, registry).anchor(await headOf(other));
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(KeeperDivergedError);
        expect(await nonceOf()).to.equal(before);
      });

      it("waits for the configured confirmations before answering", async () => {
        const { store, registry } = await fresh();
        await appendSeals(store, "deep", 2);
        const keeper = keeperFor(store, registry, { confirmations: 3, waitMs: 300 });
        expect(await keeper.anchor(await headOf(store))).to.equal(undefined);
        await node.provider.send("hardhat_mine", ["0x2"]);
        expect(await keeper.anchor(await headOf(store))).to.include({ anchorIndex: 0, treeSize: 2 });
      });

      it("refuses a key without KEEPER_ROLE after simulating, and signs nothing", async () => {
        const { store, registry } = await fresh();
        await appendSeals(store, "intruder", 2);
        const intruder = new Wallet(HARDHAT_KEYS[3], node.provider);
        const before = await node.provider.getTransactionCount(intruder.address, "latest");
        let caught: unknown;
        try {
          await keeperFor(store, registry, { signer: intruder }).anchor(await headOf(store));
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(KeeperUnauthorizedError);
        expect(await node.provider.getTransactionCount(intruder.address, "latest")).to.equal(before);
        const scope = { chainId: 31337, registry: registry.address, sender: intruder.address.toLowerCase() };
        const rows = await journal(store.db, scope);
        expect(rows.map((r) => [r.status, r.error])).to.deep.equal([
          ["failed", "simulation: AccessControlUnauthorizedAccount"],
        ]);
      });

      it("keeps the nonce open when a broadcast fails and later sends the same signed bytes", async () => {
        const store = await backend.open();
        stores.push(store);
        const poor = Wallet.createRandom().connect(node.provider);
        const registry = new RegistryReader(
          node.provider,
          await deployRegistry(node.provider, poor.address),
          31337,
        );
        await appendSeals(store, "unfunded", 3);
        const head = await headOf(store);
        const keeper = keeperFor(store, registry, {
          signer: new Wallet(poor.privateKey, node.provider),
          waitMs: 200,
        });
        expect(await keeper.anchor(head)).to.equal(undefined); // simulated and signed; the node refuses it
        const scope = { chainId: 31337, registry: registry.address, sender: poor.address.toLowerCase() };
        const signed = (await journal(store.db, scope)).filter((r) => r.status === "signed");
        expect(signed).to.have.length(1);
        expect((await openNonce(store.db, scope))?.nonce).to.equal(0);

        await node.provider.send("hardhat_setBalance", [poor.address, "0xde0b6b3a7640000"]); // 1 ETH
        const receipt = await keeper.anchor(head);
        expect(receipt).to.include({ anchorIndex: 0, treeSize: 3, txHash: signed[0]!.tx_hash });
        const rows = await journal(store.db, scope);
        expect(rows.filter((r) => r.status === "signed")).to.have.length(1);
        expect(
          rows.some((r) => r.status === "failed" && /insufficient|funds|balance/i.test(r.error ?? "")),
        ).to.equal(true);
        expect(await node.provider.getTransactionCount(poor.address, "latest")).to.equal(1);
      });

      it("replaces a stuck transaction at the same nonce with both fees raised ≥ 12.5 %", async () => {
        const { store, registry } = await fresh();
        await appendSeals(store, "stuck", 6);
        const head = await headOf(store);
        const keeper = keeperFor(store, registry, { waitMs: 300, replaceAfterSeconds: 30 });
        const before = await nonceOf();
        await node.provider.send("evm_setAutomine", [false]);
        try {
          expect(await keeper.anchor(head)).to.equal(undefined); // sent, never mined
          // Base fee jumps past the transaction's cap: mining a block leaves it behind.
          await node.provider.send("hardhat_setNextBlockBaseFeePerGas", ["0x2540be400"]); // 10 gwei
          await node.provider.send("evm_mine", []);
          expect(await keeper.anchor(head)).to.equal(undefined); // not yet due for replacement
          clock += 31;
          expect(await keeper.anchor(head)).to.equal(undefined); // replaced, still unmined
          await node.provider.send("evm_mine", []);
        } finally {
          await node.provider.send("evm_setAutomine", [true]);
        }
        const receipt = await keeper.anchor(head);
        expect(receipt).to.include({ anchorIndex: 0, treeSize: 6 });
        expect(await nonceOf()).to.equal(before + 1);
        const rows = await journal(store.db, { chainId: 31337, registry: registry.address, sender });
        const signed = rows.filter((r) => r.status === "signed");
        expect(signed).to.have.length(2);
        expect(signed[0]!.nonce).to.equal(signed[1]!.nonce);
        expect(signed[1]!.replaces).to.equal(signed[0]!.tx_hash);
        for (const field of ["max_fee_per_gas", "max_priority_fee_per_gas"] as const) {
          expect(
            BigInt(signed[1]![field]!) * 10_000n >= BigInt(signed[0]![field]!) * 11_250n,
            field,
          ).to.equal(true);
        }
        const mined = rows.find((r) => r.status === "mined")!;
        expect(mined.tx_hash).to.equal(signed[1]!.tx_hash);
        expect(receipt!.txHash).to.equal(signed[1]!.tx_hash);
        expect(rows.find((r) => r.status === "replaced")?.tx_hash).to.equal(signed[0]!.tx_hash);
      });
    });
  }
});
