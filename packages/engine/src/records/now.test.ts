import { expect } from "chai";
import { InvalidInputError } from "@augur/scorer";
import { BeforeRegistrationError, EquivocationError, StaleRecordError } from "@augur/records";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { ingestRecord, RECORD_GRACE_SECONDS, type Submission } from "./ingest";
import {
  addTestSeason,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  SEASON_START,
  TEST_CHAIN_ID,
} from "../../test-support/records/testing";

const HOUR = 3600;

// Issue 17, holes 2 and 3: what the scorer would refuse, records dated in the past, records from
// before an agent registered and two different records for one moment are all refused at the door.
for (const backend of testBackends()) {
  describe(`ingestion: now means now, one validator (${backend.name})`, () => {
    let store: Store;
    let now: number;
    const ingest = (s: Submission) => ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now });
    const agent = testWallet("agent late");
    const creator = testWallet("creator of late");

    async function refusal(submission: Submission): Promise<Error> {
      const before = await store.log.size(store.db);
      const error = await ingest(submission).then(
        () => expect.fail("expected a refusal"),
        (e: unknown) => e as Error,
      );
      expect(await store.log.size(store.db), "nothing appended").to.equal(before);
      return error;
    }

    /** Registers `late` 48 hours into the season, at that moment. */
    async function registerLate(): Promise<number> {
      const at = SEASON_START + 48 * HOUR;
      now = at + 5;
      const message = { ...registration("late", agent, creator), registeredAt: at };
      await ingest(await sign("Registration", message, agent, creator));
      return at;
    }

    beforeEach(async () => {
      store = await backend.open();
      await addTestSeason(store);
    });
    afterEach(async () => store.close());

    it("refuses a late-registered agent posting the season's past: stale, then before registration", async () => {
      const registeredAt = await registerLate();
      now = registeredAt + 60;
      for (let hour = 1; hour <= 9; hour += 1) {
        const error = await refusal(
          await sign("Snapshot", snapshot("late", SEASON_START + hour * HOUR), agent),
        );
        expect(error).to.be.instanceOf(StaleRecordError);
        expect((error as StaleRecordError).status).to.equal(422);
        expect(error.message).to.contain(`more than ${RECORD_GRACE_SECONDS} s before its arrival`);
      }
      // Within the grace but before the registration: still the past of this agent.
      const early = await refusal(await sign("Snapshot", snapshot("late", registeredAt - 30), agent));
      expect(early).to.be.instanceOf(BeforeRegistrationError);
      expect(early.message).to.contain(`before the agent's registration at ${registeredAt}`);
      // Now is accepted.
      expect((await ingest(await sign("Snapshot", snapshot("late", now - 1), agent))).created).to.equal(true);
    });

    it("accepts a record exactly at the grace and refuses one a second older", async () => {
      const registeredAt = await registerLate();
      now = registeredAt + RECORD_GRACE_SECONDS + 100;
      const edge = now - RECORD_GRACE_SECONDS;
      expect((await ingest(await sign("Snapshot", snapshot("late", edge), agent))).created).to.equal(true);
      const error = await refusal(await sign("Snapshot", snapshot("late", edge - 1), agent));
      expect(error).to.be.instanceOf(StaleRecordError);
    });

    it("refuses a second, different record for the same moment (409), keeps an identical re-post idempotent", async () => {
      const registeredAt = await registerLate();
      const first = await ingest(await sign("Snapshot", snapshot("late", registeredAt + 1), agent));
      const again = await ingest(await sign("Snapshot", snapshot("late", registeredAt + 1), agent));
      expect(again).to.deep.equal({ ...first, created: false });
      const other = await refusal(
        await sign("Snapshot", snapshot("late", registeredAt + 1, "2000000000"), agent),
      );
      expect(other).to.be.instanceOf(EquivocationError);
      expect((other as EquivocationError).status).to.equal(409);
      expect(other.message).to.contain(first.seal);
      // A trade at that moment is another kind: no conflict.
      expect((await ingest(await sign("Trade", trade("late", registeredAt + 1), agent))).created).to.equal(
        true,
      );
    });

    it("has the database itself refuse a second record for a moment", async () => {
      const registeredAt = await registerLate();
      const first = await ingest(await sign("Snapshot", snapshot("late", registeredAt + 1), agent));
      const second = await ingest(await sign("Snapshot", snapshot("late", registeredAt + 2), agent));
      const claim = {
        season_id: "s1",
        agent_id: "late",
        kind: "snapshot" as const,
        moment: registeredAt + 1,
      };
      const error = await store.db
        .insertInto("record_moments")
        .values({ ...claim, seal: second.seal })
        .execute()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error, `a second claim beside ${first.seal}`).to.be.instanceOf(Error);
    });

    it("refuses, naming the field, every record augur-score/v1 would refuse (nothing stored)", async () => {
      const registeredAt = await registerLate();
      const at = registeredAt + 1;
      const poison: [string, Submission][] = [
        ["message.nav", await sign("Snapshot", snapshot("late", at, "0"), agent)],
        ["message.quantity", await sign("Trade", { ...trade("late", at), quantity: "0" }, agent)],
        ["message.price", await sign("Trade", { ...trade("late", at), price: "0" }, agent)],
      ];
      for (const [field, submission] of poison) {
        const error = await refusal(submission);
        expect(error, field).to.be.instanceOf(InvalidInputError);
        expect((error as InvalidInputError).path).to.equal(field);
        expect(error.message).to.contain("must be a positive decimal number");
      }
      expect(await store.db.selectFrom("records").select("seal").execute()).to.have.length(1);
    });
  });
}
