import { expect } from "chai";
import {
  commitTestCall,
  deployTestLedger,
  stakeTestAgent,
  sharedHardhatNode,
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
    node = await sharedHardhatNode();
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
    const t = await deployTestLedger(p);
    const ledgerAddress = t.address;
    await (await t.oracle.getFunction("setPrice").send(ASSET, 180n * ONE)).wait();
    await stakeTestAgent(t, agent);

    const hit = await commitTestCall(t, agent, ASSET, 1, 6500, 1);
    await hit.reveal();
    const revealed = await p.getBlock("latest");
    const closesAt = revealed!.timestamp + 3600;
    const unrevealed = await commitTestCall(t, agent, ASSET, 1, 9000, 2);
    await (await t.oracle.getFunction("setPriceAt").send(ASSET, closesAt, 190n * ONE)).wait();
    await p.send("evm_increaseTime", [7200]);
    await (await t.ledger.getFunction("settle").send(hit.id)).wait();
    await (await t.ledger.getFunction("expire").send(unrevealed.id)).wait();

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
    expect(early.stored).to.equal(5); // Committed twice, Revealed, Settled, Expired
    // Two commits, the reveal and the settle are 2 deep; the Expired block is not yet.
    expect(early.promoted).to.equal(4);
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
    // Sealed as they happened: commit, reveal, commit, then the two outcomes.
    expect(bodies.map((b) => [b.format, b.callId, b.agentId, b.outcome ?? null])).to.deep.equal([
      ["augur-call-commit/v1", hit.id.toString(), "alpha", null],
      ["augur-call-reveal/v1", hit.id.toString(), "alpha", null],
      ["augur-call-commit/v1", unrevealed.id.toString(), "alpha", null],
      ["augur-call/v1", hit.id.toString(), "alpha", "hit"],
      ["augur-call/v1", unrevealed.id.toString(), "alpha", "miss"],
    ]);
    expect(bodies.slice(3).map((b) => b.confidenceBps)).to.deep.equal([6500, 10_000]);
    expect(bodies[0]!.revealDeadline).to.equal(Number(bodies[0]!.committedAt) + 3600);
    expect(records.every((r) => r.agent_id === "alpha" && r.season_id === "s1")).to.equal(true);
  });
});
