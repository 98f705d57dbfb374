import { expect } from "chai";
import {
  AbiCoder,
  keccak256,
  MaxUint256,
  Wallet,
  toBeHex,
  zeroPadValue,
  type Contract,
  type Log,
  type LogDescription,
} from "ethers";
import {
  deployArtifact,
  HARDHAT_KEYS,
  startHardhatNode,
  type HardhatNode,
} from "../../test-support/keeper/testing";
import { ingestRecord } from "../records/ingest";
import {
  addTestSeason,
  registerTestAgent,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { openStore, type Store } from "../store/open";
import { ledgerIndexer } from "./ledger";

const ASSET = "0x00000000000000000000000000000000000a0001";
const ONE = 10n ** 18n;

describe("chain indexer: CallLedger on a hardhat node → sealed call records", () => {
  let node: HardhatNode;
  let store: Store;

  before(async () => {
    node = await startHardhatNode();
  });
  after(async () => {
    await store?.close();
    await node?.stop();
  });

  it("seals a settled hit and an expired miss of a registered agent, with the reveal's confidence", async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    await addTestSeason(store);
    const { agent } = await registerTestAgent(
      (s) => ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity }),
      "alpha",
    );
    const p = node.provider;
    const startBlock = await p.getBlockNumber();
    // The season lies in the future of the node's clock: move the chain into it.
    await p.send("evm_setNextBlockTimestamp", [TEST_NOW]);
    const admin = new Wallet(HARDHAT_KEYS[0]).address;
    const usdg = await deployArtifact(p, "test/MockUSDG.sol/MockUSDG.json", []);
    const oracle = await deployArtifact(p, "test/MockPriceOracle.sol/MockPriceOracle.json", []);
    const ledger = await deployArtifact(p, "CallLedger.sol/CallLedger.json", [
      await usdg.getAddress(),
      await oracle.getAddress(),
      100_000_000n,
      admin,
    ]);
    const ledgerAddress = (await ledger.getAddress()).toLowerCase();
    const send = async (c: Contract, fn: string, ...args: unknown[]) =>
      (await c.getFunction(fn).send(...args)).wait();
    await send(ledger, "setWindow", 3600, true);
    await send(oracle, "setPrice", ASSET, 180n * ONE);
    await p.send("hardhat_setBalance", [agent.address, "0xde0b6b3a7640000"]);
    await send(usdg, "mint", agent.address, 1_000_000_000n);
    const asAgent = (c: Contract) => c.connect(agent.connect(p)) as Contract;
    await send(asAgent(usdg), "approve", ledgerAddress, MaxUint256);
    await send(asAgent(ledger), "deposit", 100_000_000n);

    const commit = async (confidenceBps: number, salt: number) => {
      const saltHex = zeroPadValue(toBeHex(salt), 32);
      const commitment = keccak256(
        AbiCoder.defaultAbiCoder().encode(
          ["uint256", "address", "address", "address", "uint32", "uint8", "uint16", "bytes32"],
          [31337, ledgerAddress, agent.address, ASSET, 3600, 1, confidenceBps, saltHex],
        ),
      );
      const receipt = await send(asAgent(ledger), "commit", commitment);
      const log = receipt!.logs
        .map((l: Log) => ledger.interface.parseLog(l))
        .find((l: LogDescription | null) => l?.name === "Committed");
      return { id: log!.args.getValue("callId") as bigint, salt: saltHex, confidenceBps };
    };

    const hit = await commit(6500, 1);
    await send(asAgent(ledger), "reveal", hit.id, ASSET, 3600, 1, hit.confidenceBps, hit.salt);
    const revealed = await p.getBlock("latest");
    const closesAt = revealed!.timestamp + 3600;
    const unrevealed = await commit(9000, 2);
    await send(oracle, "setPriceAt", ASSET, closesAt, 190n * ONE);
    await p.send("evm_increaseTime", [7200]);
    await send(ledger, "settle", hit.id);
    await send(ledger, "expire", unrevealed.id);

    const indexer = ledgerIndexer({
      store,
      provider: p,
      chainId: 31337,
      ledger: ledgerAddress,
      startBlock,
      confirmations: 2,
      now: () => TEST_NOW,
    });
    const early = await indexer.poll();
    expect(early.stored).to.equal(3); // Revealed, Settled, Expired
    expect(early.promoted).to.equal(1); // the Expired block is not yet 2 deep
    await p.send("hardhat_mine", ["0x1"]);
    expect((await indexer.poll()).promoted).to.equal(1);
    expect((await indexer.poll()).promoted).to.equal(0);

    const records = await store.db
      .selectFrom("records")
      .selectAll()
      .where("kind", "=", "call")
      .orderBy("leaf_index")
      .execute();
    const bodies = records.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((b) => [b.callId, b.agentId, b.outcome, b.confidenceBps])).to.deep.equal([
      [hit.id.toString(), "alpha", "hit", 6500],
      [unrevealed.id.toString(), "alpha", "miss", 10_000],
    ]);
    expect(records.every((r) => r.agent_id === "alpha" && r.season_id === "s1")).to.equal(true);
  });
});
