import { expect } from "chai";
import { sql } from "kysely";
import { InvalidInputError, seal as sealOf } from "@augur/scorer";
import type { Store } from "../store/open";
import { findRecord } from "../store/queries/records";
import { testBackends } from "../../test-support/store/testing";
import {
  AgentExistsError,
  BadSignatureError,
  RecordOutOfSeasonError,
  SeasonClosedError,
  UnknownAgentError,
  UnknownSeasonError,
  sealedRecord,
  sealRecord,
  WrongSignerError,
} from "@augur/records";
import { ingestRecord, storeRecord, type Submission } from "./ingest";
import { checkSubmission } from "./ingest-check";
import {
  addTestSeason,
  decision,
  registerTestAgent,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
  SEASON_END,
} from "../../test-support/records/testing";

for (const backend of testBackends()) {
  describe(`ingestRecord on ${backend.name}`, () => {
    let store: Store;
    let now = TEST_NOW;
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });

    async function refused(submission: Submission, type: new (...args: never[]) => Error): Promise<Error> {
      const before = await store.log.size(store.db);
      const error = await ingest(submission).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, "expected a refusal").to.be.instanceOf(type);
      expect(await store.log.size(store.db), "nothing appended").to.equal(before);
      return error as Error;
    }

    beforeEach(async () => {
      now = TEST_NOW;
      store = await backend.open();
      await addTestSeason(store);
    });
    afterEach(async () => store.close());

    it("registers an agent, then seals, stores and logs its snapshot", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const result = await ingest(await sign("Snapshot", snapshot("alpha", TEST_NOW - 60), agent));
      expect(result).to.include({ kind: "snapshot", leafIndex: 1, created: true });
      const row = await findRecord(store.db, result.seal);
      expect(sealOf(JSON.parse(row!.body))).to.equal(result.seal);
      expect(JSON.parse(row!.body)).to.deep.include({ format: "augur-record/v1", type: "Snapshot" });
      expect(row!.signer).to.equal(agent.address.toLowerCase());
      const agents = await store.db.selectFrom("agents").selectAll().execute();
      expect(agents).to.have.length(1);
      expect(agents[0]).to.include({
        id: "alpha",
        style: "momentum",
        agent_key: agent.address.toLowerCase(),
      });
    });

    it("stores the seal and body its check made, and seals again one checked for another chain", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const ctx = { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity };
      const signed = (t: number) => sign("Snapshot", snapshot("alpha", t), agent);
      const checked = checkSubmission(await signed(TEST_NOW - 60), TEST_CHAIN_ID);
      const result = await storeRecord(store, checked.record, ctx, checked.signers);
      expect(result.seal).to.equal(checked.record.sealed!.seal);
      expect((await findRecord(store.db, result.seal))!.body).to.equal(checked.record.sealed!.body);
      const foreign = checkSubmission(await signed(TEST_NOW - 30), TEST_CHAIN_ID + 1).record;
      const resealed = await storeRecord(store, foreign, ctx, checked.signers);
      const own = sealRecord(sealedRecord("Snapshot", TEST_CHAIN_ID, foreign.message));
      expect(resealed.seal).to.equal(own.seal).and.not.equal(foreign.sealed!.seal);
      expect((await findRecord(store.db, own.seal))!.body).to.equal(own.body);
    });

    it("stores each of decision and trade records", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const d = await ingest(await sign("Decision", decision("alpha", TEST_NOW - 5), agent));
      const t = await ingest(await sign("Trade", trade("alpha", TEST_NOW - 4), agent));
      expect([d.kind, t.kind, d.leafIndex, t.leafIndex]).to.deep.equal(["decision", "trade", 1, 2]);
    });

    it("is idempotent: the same record twice is one row and one leaf, answered with the same seal", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const submission = await sign("Snapshot", snapshot("alpha", TEST_NOW - 60), agent);
      const first = await ingest(submission);
      const second = await ingest(submission);
      expect(second).to.deep.equal({ ...first, created: false });
      expect(await store.log.size(store.db)).to.equal(2);
    });

    it("seals the normal form: address case does not change the seal", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const lower = await ingest(await sign("Trade", trade("alpha", TEST_NOW), agent));
      const message = { ...trade("alpha", TEST_NOW), asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3" };
      const mixed = await ingest(await sign("Trade", message, agent));
      expect(mixed.seal).to.equal(lower.seal);
      expect(mixed.created).to.equal(false);
    });

    it("serialises concurrent submissions: distinct leaves, duplicates stored once", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const subs = await Promise.all(
        [1, 2, 3, 4, 5].map((i) => sign("Snapshot", snapshot("alpha", TEST_NOW - i), agent)),
      );
      const results = await Promise.all([...subs, ...subs].map((s) => ingest(s)));
      expect(results.filter((r) => r.created)).to.have.length(5);
      expect(new Set(results.map((r) => r.leafIndex))).to.deep.equal(new Set([1, 2, 3, 4, 5]));
      expect(await store.log.size(store.db)).to.equal(6);
    });

    it("refuses a record signed by another key (403), storing nothing", async () => {
      await registerTestAgent(ingest, "alpha");
      const error = await refused(
        await sign("Snapshot", snapshot("alpha", TEST_NOW), testWallet("mallory")),
        WrongSignerError,
      );
      expect((error as WrongSignerError).status).to.equal(403);
    });

    it("refuses a record of an unknown agent or season (404)", async () => {
      await refused(
        await sign("Snapshot", snapshot("ghost", TEST_NOW), testWallet("ghost")),
        UnknownAgentError,
      );
      await refused(
        await sign("Snapshot", snapshot("ghost", TEST_NOW, "1", "s9"), testWallet("ghost")),
        UnknownSeasonError,
      );
    });

    it("refuses records once the season has ended or was closed (409)", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const submission = await sign("Snapshot", snapshot("alpha", SEASON_END - 10), agent);
      now = SEASON_END;
      await refused(submission, SeasonClosedError);
      now = TEST_NOW;
      await sql`UPDATE seasons SET closed_at = ${TEST_NOW - 1}`.execute(store.db);
      await refused(await sign("Snapshot", snapshot("alpha", TEST_NOW - 100), agent), SeasonClosedError);
    });

    it("refuses a record dated outside the season or in the future (422)", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      await refused(
        await sign("Snapshot", snapshot("alpha", TEST_NOW + 3600), agent),
        RecordOutOfSeasonError,
      );
      await refused(await sign("Snapshot", snapshot("alpha", 1_700_000_000), agent), RecordOutOfSeasonError);
    });

    it("refuses malformed fields with a message naming the field (400)", async () => {
      const { agent } = await registerTestAgent(ingest, "alpha");
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...snapshot("alpha", TEST_NOW), nav: "-1" }, /message\.nav/],
        [{ ...snapshot("alpha", TEST_NOW), nav: 1000 }, /message\.nav/],
        [{ ...snapshot("alpha", TEST_NOW), flow: "01" }, /message\.flow/],
        [{ ...snapshot("alpha", TEST_NOW), extra: 1 }, /message\.extra: is not a Snapshot field/],
        [{ ...snapshot("alpha", TEST_NOW), takenAt: 1.5 }, /message\.takenAt/],
        [{ ...snapshot("Alpha", TEST_NOW) }, /message\.agentId/],
      ];
      for (const [message, pattern] of cases) {
        const error = await refused(
          { type: "Snapshot", message, signature: "0x" + "1".repeat(130) },
          InvalidInputError,
        );
        expect(error.message).to.match(pattern);
      }
      const error = await refused(
        {
          type: "Trade",
          message: { ...trade("alpha", TEST_NOW), asset: "0x5FBDB2315678afecb367f032d93F642f64180aa3" },
          signature: "0x",
        },
        InvalidInputError,
      );
      expect(error.message).to.match(/message\.asset: has a bad EIP-55 checksum/);
      await refused(
        await sign("Snapshot", snapshot("alpha", TEST_NOW), agent).then((s) => ({ ...s, type: "Snapshots" })),
        InvalidInputError,
      );
    });

    it("refuses a garbage or missing signature (401)", async () => {
      await registerTestAgent(ingest, "alpha");
      const message = snapshot("alpha", TEST_NOW);
      await refused({ type: "Snapshot", message, signature: "0xdeadbeef" }, BadSignatureError);
      await refused({ type: "Snapshot", message, signature: "0x" + "00".repeat(65) }, BadSignatureError);
      await refused({ type: "Snapshot", message, signature: undefined }, BadSignatureError);
    });

    it("requires the creator's co-signature on a registration", async () => {
      const agent = testWallet("a");
      const creator = testWallet("c");
      const message = registration("alpha", agent, creator);
      const noCreator = await sign("Registration", message, agent);
      await refused(noCreator, BadSignatureError);
      await refused(
        await sign("Registration", message, agent, testWallet("not the creator")),
        WrongSignerError,
      );
      await refused(
        await sign("Registration", message, testWallet("not the agent"), creator),
        WrongSignerError,
      );
      expect((await ingest(await sign("Registration", message, agent, creator))).created).to.equal(true);
    });

    it("refuses a second, different registration of the same agent in a season (409)", async () => {
      await registerTestAgent(ingest, "alpha");
      const agent = testWallet("other key");
      const creator = testWallet("other creator");
      await refused(
        await sign("Registration", registration("alpha", agent, creator), agent, creator),
        AgentExistsError,
      );
    });

    it("writes nothing when the last write of the transaction fails", async () => {
      // Make the agents insert (the last statement of a registration) fail inside the database.
      if (store.dialect === "sqlite") {
        await sql`CREATE TRIGGER agents_fail BEFORE INSERT ON agents BEGIN SELECT RAISE(ABORT, 'injected'); END`.execute(
          store.db,
        );
      } else {
        await sql`CREATE FUNCTION fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`.execute(
          store.db,
        );
        await sql`CREATE TRIGGER agents_fail BEFORE INSERT ON agents FOR EACH ROW EXECUTE FUNCTION fail_insert()`.execute(
          store.db,
        );
      }
      const error = await registerTestAgent(ingest, "alpha").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String(error)).to.contain("injected");
      expect(await store.log.size(store.db)).to.equal(0);
      expect(await store.db.selectFrom("records").selectAll().execute()).to.have.length(0);
      expect(await store.db.selectFrom("merkle_nodes").selectAll().execute()).to.have.length(0);
    });
  });
}
