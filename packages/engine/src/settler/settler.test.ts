import { expect } from "chai";
import fc from "fast-check";
import { JsonRpcProvider, Wallet, type TransactionRequest } from "ethers";
import { buildApp } from "../api/app";
import { cycleOnce } from "../cli/commands/cycle";
import { ingestRecord } from "../records/ingest";
import { ChainKeeper } from "../keeper/keeper";
import { RegistryReader } from "../keeper/registry";
import { ledgerIndexer } from "../indexer/ledger";
import { openStore, type Store } from "../store/open";
import { gasByAction, journal } from "../store/queries/keeper-journal";
import {
  commitTestCall,
  deployRegistry,
  deployTestLedger,
  HARDHAT_KEYS,
  stakeTestAgent,
  sharedHardhatNode,
  TEST_WINDOW,
  type HardhatNode,
  type TestLedger,
} from "../../test-support/keeper/testing";
import {
  addTestSeason,
  registerTestAgent,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { SettlerCallError } from "./errors";
import { Settler } from "./settler";

const ASSET = "0x00000000000000000000000000000000000a0001";
const ONE = 10n ** 18n;
/** ICallLedger.Status and Outcome. */
const STATUS = { committed: 1n, revealed: 2n, settled: 3n, expired: 4n };
const MISS = 2n;
const CYCLE = 3600;

describe("settler on a hardhat node: nothing dodged", function () {
  let node: HardhatNode;
  const stores: Store[] = [];
  const keeperKey = HARDHAT_KEYS[2];

  before(async () => {
    node = await sharedHardhatNode();
    // The test season lies in the future of the node's clock: move the chain into it once.
    await node.provider.send("evm_setNextBlockTimestamp", [TEST_NOW]);
    await node.provider.send("hardhat_mine", ["0x1"]);
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  after(async () => node?.stop());

  /** A fresh store with agent "alpha" registered, a fresh ledger and registry, the chain the cycle runs. */
  async function world(provider: JsonRpcProvider = node.provider) {
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    stores.push(store);
    await addTestSeason(store);
    const { agent } = await registerTestAgent(
      (s) => ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity }),
      "alpha",
    );
    const startBlock = await node.provider.getBlockNumber();
    const t = await deployTestLedger(node.provider);
    await (await t.oracle.getFunction("setPrice").send(ASSET, 180n * ONE)).wait();
    await stakeTestAgent(t, agent);
    const signer = new Wallet(keeperKey, provider);
    const registry = new RegistryReader(provider, await deployRegistry(node.provider, signer.address), 31337);
    const now = () => Math.floor(Date.now() / 1000);
    const account = {
      store,
      provider,
      signer,
      confirmations: 1,
      replaceAfterSeconds: 600,
      waitMs: 20_000,
      pollMs: 20,
      now,
    };
    const settler = new Settler({ ...account, chainId: 31337, ledger: t.address, maxPerPass: 50 });
    const chain = {
      keeper: new ChainKeeper({ ...account, registry }),
      indexer: ledgerIndexer({
        store,
        provider,
        chainId: 31337,
        ledger: t.address,
        startBlock,
        confirmations: 1,
        now,
      }),
      settler,
    };
    const cycle = () => cycleOnce({ store, chain, now, progress: () => undefined });
    return { store, agent, t, settler, chain, cycle };
  }

  /** What GET /api/v1/agents/alpha/history serves for each call: callId → outcome. */
  async function outcomesServed(store: Store): Promise<Record<string, string>> {
    const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => TEST_NOW });
    try {
      const res = await app.inject({ method: "GET", url: "/api/v1/agents/alpha/history?season_id=s1" });
      const calls = (res.json() as { calls: { callId: string; outcome: string }[] }).calls;
      return Object.fromEntries(calls.map((c) => [c.callId, c.outcome]));
    } finally {
      await app.close();
    }
  }

  const callOf = async (t: TestLedger, id: bigint) =>
    (await t.ledger.getFunction("getCall").staticCall(id)) as {
      status: bigint;
      outcome: bigint;
      closesAt: bigint;
    };
  const chainTime = async () => (await node.provider.getBlock("latest"))!.timestamp;
  const advance = async (seconds: number) => {
    await node.provider.send("evm_increaseTime", [seconds]);
    await node.provider.send("hardhat_mine", ["0x1"]);
  };

  it("resolves a losing call the agent never touches again as a miss within one cycle of closesAt, and an unrevealed commit after its deadline", async () => {
    const { store, agent, t, cycle } = await world();
    const losing = await commitTestCall(t, agent, ASSET, 1, 6500, 1);
    await losing.reveal();
    const ghost = await commitTestCall(t, agent, ASSET, 2, 9000, 2); // never revealed
    const closesAt = Number((await callOf(t, losing.id)).closesAt);
    await (await t.oracle.getFunction("setPriceAt").send(ASSET, closesAt, 170n * ONE)).wait(); // it went down
    const agentNonce = await node.provider.getTransactionCount(agent.address);

    const before = await cycle();
    expect(before.settle).to.include({ due: 0, settled: 0, expired: 0 });
    expect((await callOf(t, losing.id)).status).to.equal(STATUS.revealed);
    // Sealed when they happened: the API lists both calls of the season already, as open.
    expect(await outcomesServed(store)).to.deep.equal({
      [losing.id.toString()]: "open",
      [ghost.id.toString()]: "open",
    });

    await advance(TEST_WINDOW + 1); // past closesAt and past the commit's reveal deadline
    const due = await cycle();
    expect(due.settle).to.include({ due: 2, settled: 1, expired: 1, skipped: 0, pending: false });
    expect(due.settle!.failed).to.deep.equal([]);
    expect((await chainTime()) - closesAt).to.be.lessThan(CYCLE);
    const settled = await callOf(t, losing.id);
    expect([settled.status, settled.outcome]).to.deep.equal([STATUS.settled, MISS]);
    const expired = await callOf(t, ghost.id);
    expect([expired.status, expired.outcome]).to.deep.equal([STATUS.expired, MISS]);
    expect(await node.provider.getTransactionCount(agent.address)).to.equal(agentNonce); // the agent did nothing

    await cycle(); // the next poll seals both resolutions
    expect(await outcomesServed(store)).to.deep.equal({
      [losing.id.toString()]: "miss",
      [ghost.id.toString()]: "miss",
    });
    const records = await store.db
      .selectFrom("records")
      .select(["body", "season_id"])
      .where("kind", "=", "call")
      .execute();
    const outcomes = records
      .map((r) => ({ ...(JSON.parse(r.body) as { callId: string; outcome?: string }), season: r.season_id }))
      .filter((b) => b.outcome !== undefined) // the commit and reveal records came before
      .map((b) => [b.callId, b.outcome, b.season]);
    expect(outcomes).to.have.deep.members([
      [losing.id.toString(), "miss", "s1"],
      [ghost.id.toString(), "miss", "s1"],
    ]);

    // Spend recorded per action in the keeper's journal (the figures docs/benchmarks.md quotes).
    const sender = new Wallet(keeperKey).address.toLowerCase();
    const gas = await gasByAction(store.db, { chainId: 31337, sender });
    expect([gas.settle.txs, gas.expire.txs]).to.deep.equal([1, 1]);
    expect(gas.settle.gasUsed + gas.expire.gasUsed).to.equal(due.settle!.gasUsed);
    console.log(`      settler gas: settle ${gas.settle.gasUsed}, expire ${gas.expire.gasUsed}`);
    // One account, one journal: the anchor posts and the settler's calls take consecutive nonces.
    const mined = await store.db
      .selectFrom("keeper_attempts")
      .select(["nonce", "action"])
      .where("status", "=", "mined")
      .orderBy("id")
      .execute();
    const nonces = mined.map((r) => Number(r.nonce));
    expect(nonces).to.deep.equal(nonces.map((_, i) => nonces[0]! + i));
    expect(mined.map((r) => r.action ?? "post")).to.include.members(["post", "settle", "expire"]);
    expect(
      (await journal(store.db, { chainId: 31337, sender, registry: t.address })).length,
    ).to.be.greaterThan(0);
  });

  it("skips a call the agent settled itself meanwhile, and a failing call does not stop the others", async () => {
    // A node that refuses to simulate one call (the fault a broken RPC or an odd call gives).
    let refuse = "";
    class FlakyProvider extends JsonRpcProvider {
      override async estimateGas(tx: TransactionRequest): Promise<bigint> {
        if (refuse && typeof tx.data === "string" && tx.data.includes(refuse))
          throw new Error("simulation refused");
        return super.estimateGas(tx);
      }
    }
    const flaky = new FlakyProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const { agent, t, chain, settler } = await world(flaky);
      const calls = [];
      for (let i = 0; i < 3; i++) {
        const c = await commitTestCall(t, agent, ASSET, 1, 6000, 10 + i);
        await c.reveal();
        calls.push(c);
      }
      await advance(TEST_WINDOW + 1);
      await chain.indexer.poll(); // the settler sees all three open
      const asAgent = t.ledger.connect(agent.connect(node.provider));
      await (await asAgent.getFunction("settle").send(calls[0]!.id)).wait(); // the agent races the settler
      refuse = calls[1]!.id.toString(16);
      const report = await settler.pass();
      expect(report).to.include({ due: 3, settled: 1, skipped: 1 });
      expect(report.failed).to.have.length(1);
      expect(report.failed[0]).to.be.instanceOf(SettlerCallError);
      expect(report.failed[0]!.details).to.include({ action: "settle", callId: calls[1]!.id.toString() });
      expect((await callOf(t, calls[2]!.id)).status).to.equal(STATUS.settled);
      refuse = "";
      // The indexer has not seen the settles yet: all three look due, two are found resolved.
      expect(await settler.pass()).to.include({ due: 3, settled: 1, skipped: 2 });
      expect((await callOf(t, calls[1]!.id)).status).to.equal(STATUS.settled);
    } finally {
      flaky.destroy();
    }
  });

  it("model: after every cycle no call is open past its due time (commit → reveal → settle/expire)", async () => {
    type Step =
      | { kind: "commit"; reveal: boolean }
      | { kind: "advance"; minutes: number }
      | { kind: "cycle" };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant("commit" as const), reveal: fc.boolean() }),
      fc.record({ kind: fc.constant("advance" as const), minutes: fc.integer({ min: 1, max: 150 }) }),
      fc.constant({ kind: "cycle" as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { agent, t, cycle } = await world();
        const ids: bigint[] = [];
        let salt = 100;
        for (const s of [...steps, { kind: "advance", minutes: 61 } as Step, { kind: "cycle" } as Step]) {
          if (s.kind === "commit") {
            const c = await commitTestCall(t, agent, ASSET, 1, 6000, salt++);
            if (s.reveal) await c.reveal();
            ids.push(c.id);
          } else if (s.kind === "advance") {
            await advance(s.minutes * 60);
          } else {
            const at = await chainTime();
            await cycle();
            const timeout = Number(await t.ledger.getFunction("revealTimeout").staticCall());
            for (const id of ids) {
              const c = await callOf(t, id);
              const committedAt = Number(id & 0xffff_ffff_ffff_ffffn);
              const dueAt = c.status === STATUS.revealed ? Number(c.closesAt) : committedAt + timeout + 1;
              const open = c.status === STATUS.revealed || c.status === STATUS.committed;
              expect(open && dueAt <= at, `call ${id} open past ${dueAt} after the cycle at ${at}`).to.equal(
                false,
              );
            }
          }
        }
      }),
      // Each run deploys a ledger and mines tens of blocks: a handful of runs, not the global 1,000.
      { numRuns: Number(process.env.SETTLER_RUNS ?? 4) },
    );
  });
});
