import { expect } from "chai";
import { sql } from "kysely";
import { erasableText, ZERO_HASH, type ErasableText } from "@augur/records";
import { ingestRecord } from "../records/ingest";
import type { Store } from "../store/open";
import { erasableTextsOf } from "../store/queries/erasure";
import { testBackends } from "../../test-support/store/testing";
import {
  addTestSeason,
  decisionV3,
  registration,
  sign,
  snapshot,
  testWallet,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { eraseField } from "./erase";
import { postText, textViews, sealedFields } from "./texts";

async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { status: number; code: string; shortMessage: string };
    return { status: e.status, code: e.code, message: e.shortMessage };
  }
  throw new Error("expected a refusal");
}

for (const backend of testBackends()) {
  describe(`erasable text: post, serve, erase (${backend.name})`, () => {
    let store: Store;
    let noted = "";
    let silent = "";
    let snapshotSeal = "";
    let note: ErasableText;

    before(async () => {
      store = await backend.open();
      await addTestSeason(store);
      const ctx = { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity };
      const agent = testWallet("texts agent");
      const creator = testWallet("texts creator");
      await ingestRecord(
        store,
        await sign("Registration", registration("alpha", agent, creator), agent, creator),
        ctx,
      );
      const made = decisionV3("alpha", TEST_NOW - 30, "ring Grace Hopper first");
      note = made.text;
      noted = (await ingestRecord(store, await sign("DecisionV3", made.message, agent), ctx)).seal;
      const none = decisionV3("alpha", TEST_NOW - 20).message;
      silent = (await ingestRecord(store, await sign("DecisionV3", none, agent), ctx)).seal;
      snapshotSeal = (
        await ingestRecord(store, await sign("Snapshot", snapshot("alpha", TEST_NOW - 10), agent), ctx)
      ).seal;
    });
    after(() => store.close());

    it("a note is pending until posted, then published; the same text again writes nothing", async () => {
      const views = () => sealedFields(store.db, noted).then((r) => textViews(store.db, r));
      expect((await views())[0]).to.include({
        field: "note",
        status: "pending",
        hash: note.hash,
        text: null,
      });
      const post = () =>
        postText(store, noted, { field: "note", text: note.text, salt: note.salt }, TEST_NOW);
      expect(await post()).to.deep.equal({ seal: noted, field: "note", created: true });
      expect(await post()).to.deep.equal({ seal: noted, field: "note", created: false });
      expect((await views())[0]).to.include({ status: "published", text: note.text, salt: note.salt });
      const none = await textViews(store.db, await sealedFields(store.db, silent));
      expect(none[0]).to.include({ status: "none", hash: ZERO_HASH });
      expect(await textViews(store.db, await sealedFields(store.db, snapshotSeal))).to.deep.equal([]);
    });

    it("refuses a text that is not the sealed one, a zero-hash field, a field or seal that does not exist", async () => {
      const other = erasableText("someone else");
      expect(
        await refusal(postText(store, noted, { field: "note", text: other.text, salt: note.salt }, 0)),
      ).to.include({
        status: 422,
        code: "TEXT_MISMATCH",
      });
      expect(await refusal(postText(store, silent, { field: "note", ...other }, 0))).to.include({
        status: 422,
        code: "NO_TEXT",
      });
      expect(await refusal(postText(store, snapshotSeal, { field: "note", ...other }, 0))).to.deep.equal({
        status: 404,
        code: "UNKNOWN_FIELD",
        message: `record ${snapshotSeal} (Snapshot) has no erasable field, not 'note'`,
      });
      expect(
        await refusal(eraseField(store, { seal: `0x${"0".repeat(64)}`, field: "note", now: 0 })),
      ).to.include({
        status: 404,
        code: "UNKNOWN_SEAL",
      });
    });

    it("erasing deletes text and salt, logs seal, field, date and ground, and the log refuses changes", async () => {
      const done = await eraseField(store, {
        seal: noted,
        field: "note",
        reason: "GDPR art. 17",
        now: TEST_NOW + 5,
      });
      expect(done).to.deep.equal({ seal: noted, field: "note", textDeleted: true, erasedAt: TEST_NOW + 5 });
      expect(await erasableTextsOf(store.db, noted)).to.deep.equal([]);
      const [view] = await textViews(store.db, await sealedFields(store.db, noted));
      expect(view).to.deep.equal({
        field: "note",
        hash: note.hash,
        status: "erased",
        text: null,
        salt: null,
        erasedAt: TEST_NOW + 5,
      });
      expect(await refusal(eraseField(store, { seal: noted, field: "note", now: TEST_NOW + 9 }))).to.include({
        status: 409,
        code: "ALREADY_ERASED",
      });
      expect(
        await refusal(postText(store, noted, { field: "note", text: note.text, salt: note.salt }, 0)),
      ).to.include({ status: 410, code: "ERASED" });
      const undo = sql`DELETE FROM erasures`.execute(store.db).then(
        () => "deleted",
        (e: Error) => e.message,
      );
      expect(await undo).to.match(/erasures is append-only/);
    });
  });
}
