import { expect } from "chai";
import type { Log } from "ethers";
import { seal } from "@augur/scorer";
import { ingestRecord } from "../records/ingest";
import {
  addTestSeason,
  registerTestAgent,
  SEASON_END,
  SEASON_START,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { callLedger } from "../chain/abi/call-ledger";
import { CallLedgerEvents, EXPIRED_CONFIDENCE_BPS } from "./calls";
import { ReorgTooDeepError } from "./errors";
import { declareWindDown } from "../../test-support/modes/testing";

const LEDGER = "0x9fe46736679d2d9a65f6367c78c6d9ce2f5ba6e0";
const ASSET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const STRANGER = "0x00000000000000000000000000000000000000aa";
const BLOCK_TIME = (n: number) => SEASON_START + 3600 * n;
/** A call id as CallLedger makes it: agent, the agent's commit sequence, the commit's time. */
const callId = (agent: string, sequence: number, committedAt: number) =>
  (BigInt(agent) << 96n) | (BigInt(sequence) << 64n) | BigInt(committedAt);

/** A log as a node would return it, from the event's ABI. */
function logOf(name: string, values: unknown[], block: number, index: number): Log {
  const { data, topics } = callLedger.encodeEventLog(callLedger.getEvent(name)!, values);
  return {
    address: LEDGER,
    data,
    topics,
    blockNumber: block,
    blockHash: `0x${block.toString(16).padStart(64, "0")}`,
    transactionHash: `0x${(block * 1000 + index).toString(16).padStart(64, "0")}`,
    index,
  } as unknown as Log;
}

const stamps = (logs: Log[]) => new Map(logs.map((l) => [l.blockHash, BLOCK_TIME(l.blockNumber)]));

for (const backend of testBackends()) {
  describe(`CallLedger events on ${backend.name}`, () => {
    let store: Store;
    let agent: string;
    const handler = new CallLedgerEvents({ chainId: 31337, address: LEDGER }, 2, () => TEST_NOW);

    beforeEach(async () => {
      store = await backend.open();
      await addTestSeason(store);
      const ingest = (s: Parameters<typeof ingestRecord>[1]) =>
        ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity });
      agent = (await registerTestAgent(ingest, "alpha")).agent.address.toLowerCase();
    });
    afterEach(async () => store.close());

    const id = (n: number) => callId(n === 3 ? STRANGER : agent, n, BLOCK_TIME(1));
    const history = () => [
      logOf(
        "Revealed",
        [
          id(1),
          agent,
          ASSET,
          3600,
          1,
          6500,
          `0x${"11".repeat(32)}`,
          180n * 10n ** 18n,
          BLOCK_TIME(2) + 3600,
          10n ** 18n,
        ],
        2,
        0,
      ),
      logOf("Consensus", [ASSET, 3600, 123n, 1, 7000, 3, 3n * 10n ** 18n, 10n ** 18n], 2, 1),
      logOf("Settled", [id(1), agent, 1, 181n * 10n ** 18n], 4, 0),
      logOf("Expired", [id(2), agent], 5, 0),
      logOf("Expired", [id(3), STRANGER], 5, 1), // no agent registered with that key: not ours
    ];

    async function storeAll(logs: Log[]) {
      return store.db.transaction().execute((trx) => handler.store(trx, logs, stamps(logs)));
    }

    async function callRecords() {
      const rows = await store.db
        .selectFrom("records")
        .selectAll()
        .where("kind", "=", "call")
        .orderBy("leaf_index")
        .execute();
      return rows.map((r) => ({
        seal: r.seal,
        agent: r.agent_id,
        body: JSON.parse(r.body) as Record<string, unknown>,
      }));
    }

    it("keeps events as seen, seals confirmed resolutions of registered agents once, and records consensus", async () => {
      expect(await storeAll(history())).to.equal(5);
      expect(await storeAll(history())).to.equal(0); // the same batch again adds nothing
      expect(await handler.promote(store, 3)).to.equal(1); // the reveal, sealed when it happened
      expect(await handler.promote(store, 5)).to.equal(2);
      expect(await handler.promote(store, 5)).to.equal(0);

      const records = await callRecords();
      expect(
        records.map((r) => [r.agent, r.body.format, r.body.callId, r.body.outcome, r.body.confidenceBps]),
      ).to.deep.equal([
        ["alpha", "augur-call-reveal/v1", id(1).toString(), undefined, 6500],
        ["alpha", "augur-call/v1", id(1).toString(), "hit", 6500],
        ["alpha", "augur-call/v1", id(2).toString(), "miss", EXPIRED_CONFIDENCE_BPS],
      ]);
      expect(records.slice(1).map((r) => r.body.resolvedAt)).to.deep.equal([BLOCK_TIME(4), BLOCK_TIME(5)]);
      for (const r of records) expect(r.seal).to.equal(seal(r.body)); // sealed through the record path
      expect(records[0]!.body.reveal).to.include({ asset: ASSET, direction: "up", window: 3600 });
      expect(records[1]!.body.reveal).to.include({ asset: ASSET, direction: "up", window: 3600 });

      const rounds = await store.db.selectFrom("consensus_rounds").selectAll().execute();
      expect(
        rounds.map((r) => [r.asset, r.window_seconds, r.bucket, r.direction, r.strength_bps, r.voters]),
      ).to.deep.equal([[ASSET, 3600, 123, "up", 7000, 3]]);
    });

    it("keeps a call settled after its season ended in the season it closed in", async () => {
      const late = 28 * 24 + 10; // the season ends 672 hours after its start
      expect(BLOCK_TIME(late)).to.be.greaterThan(SEASON_END);
      const logs = [history()[0]!, logOf("Settled", [id(1), agent, 2, 170n * 10n ** 18n], late, 0)];
      await storeAll(logs);
      expect(await handler.promote(store, late)).to.equal(2); // the reveal, then the outcome
      const [, record] = await callRecords();
      expect(record!.body).to.include({
        agentId: "alpha",
        seasonId: "s1",
        outcome: "miss",
        resolvedAt: BLOCK_TIME(late),
      });
      const row = await store.db
        .selectFrom("records")
        .select("season_id")
        .where("seal", "=", record!.seal)
        .executeTakeFirst();
      expect(row!.season_id).to.equal("s1");
    });

    it("puts an expired commit in the season its reveal deadline falls in, whenever it is expired", async () => {
      // Committed two hours before the season ends: its deadline (+1 hour) falls inside it.
      const late = 28 * 24 + 10;
      const lastHour = callId(agent, 7, SEASON_END - 7200);
      await storeAll([logOf("Expired", [lastHour, agent], late, 0)]);
      expect(await handler.promote(store, late)).to.equal(1);
      expect((await callRecords())[0]!.body).to.include({ seasonId: "s1", outcome: "miss" });
    });

    it("seals nothing once the system winds down: the log only closes", async () => {
      await storeAll(history());
      await declareWindDown(store, "2027-01-20", TEST_NOW);
      expect(await handler.promote(store, 5)).to.equal(0);
      expect(await callRecords()).to.deep.equal([]);
    });

    it("rolls back unsealed events above a reorganised block, and refuses once a call is sealed", async () => {
      await storeAll(history());
      expect(await store.db.transaction().execute((trx) => handler.rollback(trx, 3))).to.equal(3); // Settled and both Expired
      const left = await store.db
        .selectFrom("call_events")
        .select(["kind", "block_number"])
        .orderBy("block_number")
        .execute();
      expect(left.map((r) => r.kind)).to.deep.equal(["revealed"]);
      expect(await store.db.selectFrom("consensus_rounds").select("tx_hash").execute()).to.have.length(1);

      await storeAll(history().slice(2));
      expect(await handler.promote(store, 5)).to.equal(3); // the reveal, the hit, the expiry
      let caught: unknown;
      try {
        await store.db.transaction().execute((trx) => handler.rollback(trx, 3));
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(ReorgTooDeepError);
      expect(await store.db.selectFrom("call_events").select("kind").execute()).to.have.length(4);
    });
  });
}
