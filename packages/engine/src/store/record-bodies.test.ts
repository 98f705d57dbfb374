import { expect } from "chai";
import fc from "fast-check";
import { canonicalJson, sealText } from "@augur/scorer";
import { appendEngineRecords } from "./append";
import type { Store } from "./open";
import { rebuildBody, storedBody } from "./record-bodies";
import { agentInputRecords } from "./queries/log-leaves";
import { findRecord, insertRecord, manifestTexts, recordsByLeafPage, seasonRecords } from "./queries/records";
import { testBackends } from "../../test-support/store/testing";

const FORMULA = Object.freeze({
  version: "augur-score/v1",
  constants: Object.freeze({ min_snapshots: 3, min_exposure: 0.05 }),
  weights: Object.freeze({ return: 0.4, sigma: 0.2, calibration: 0.4 }),
});

/** JSON values a record may seal (I-JSON: no integer beyond 2^53). */
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { maxDepth: 3 },
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
    fc.constantFrom(true, false, null),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("node"), { maxLength: 4 }),
  object: fc.dictionary(fc.string(), tie("node"), { maxKeys: 5 }),
})).node;

/** Manifest-like bodies: a formula (the shared one or another) and arbitrary other keys after it. */
const bodies = fc.record({
  formula: fc.oneof(fc.constant(FORMULA), fc.dictionary(fc.string(), value)),
  inputs: fc.dictionary(fc.string(), value),
  outputs: fc.option(value),
  subject: fc.record({ agent: fc.string(), as_of: fc.integer() }),
});

describe("stored record bodies: the formula split off and spliced back", () => {
  it("rebuilds every text it splits byte for byte, and stores a text whole when it does not open with its body's formula", () => {
    fc.assert(
      fc.property(bodies, value, (body, other) => {
        const text = canonicalJson(body);
        const stored = storedBody(text, body);
        expect(stored.formula_seal, "a formula object is always split off").to.not.equal(null);
        expect(rebuildBody(stored, canonicalJson(body.formula))).to.equal(text);
        const mismatched = canonicalJson({ ...body, formula: { other } });
        expect(storedBody(mismatched, body)).to.deep.equal({ body: mismatched, formula_seal: null });
      }),
    );
  });
});

for (const backend of testBackends()) {
  describe(`stored record bodies on ${backend.name}: every reader gets the sealed text`, () => {
    let store: Store;
    let now = 1;
    before(async () => {
      store = await backend.open();
      await store.db
        .insertInto("seasons")
        .values({ id: "s1", name: "S1", starts_at: 0, ends_at: 10, closed_at: null, created_at: 0 })
        .execute();
    });
    after(async () => store.close());

    const readers = (seal: string, agentId: string, leafIndex: number) => [
      findRecord(store.db, seal).then((r) => r?.body),
      manifestTexts(store.db, [seal]).then((m) => m.get(seal)),
      seasonRecords(store.db, "s1", ["score"], agentId).then((rs) => rs.at(-1)?.body),
      recordsByLeafPage(["score"], 1)(store.db, leafIndex, leafIndex + 1).then((rs) => rs[0]?.body),
      agentInputRecords(store.db, agentId, "s1", ["score"], leafIndex + 1).then((rs) => rs.at(-1)?.body),
    ];

    it("a manifest appended with its formula split off reads back as the text sealed, whose sha256 is its seal", async () => {
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const agentId = `a${now}`;
          const text = canonicalJson(body);
          const [stored] = await store.db
            .transaction()
            .execute((trx) =>
              appendEngineRecords(trx, [{ kind: "score", agentId, seasonId: "s1", body, text }], now++),
            );
          const row = await store.db
            .selectFrom("records")
            .select(["body", "formula_seal"])
            .where("seal", "=", stored!.seal)
            .executeTakeFirstOrThrow();
          expect(row.formula_seal).to.equal(sealText(canonicalJson(body.formula)));
          expect(row.body.length).to.be.lessThan(text.length);
          for (const read of await Promise.all(readers(stored!.seal, agentId, stored!.leafIndex))) {
            expect(read).to.equal(text);
            expect(sealText(read!)).to.equal(stored!.seal);
          }
        }),
        { numRuns: 50 },
      );
      const formulas = await store.db.selectFrom("record_formulas").select(["seal", "text"]).execute();
      for (const f of formulas) expect(sealText(f.text)).to.equal(f.seal);
    });

    it("appends a record already stored once: skipped when looked up, refused whole when the caller said `unseen`", async () => {
      const body = { formula: FORMULA, inputs: { twice: true } };
      const record = { kind: "score" as const, agentId: "twice", seasonId: "s1", body };
      const append = (unseen: boolean) =>
        store.db.transaction().execute((trx) => appendEngineRecords(trx, [record], now++, { unseen }));
      const [first] = await append(true);
      const size = await store.log.size(store.db);
      const [again] = await append(false);
      expect(again).to.deep.equal({ ...first, created: false });
      const refused = await append(true).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused, "the log's unique seal refuses it").to.be.instanceOf(Error);
      expect(await store.log.size(store.db)).to.equal(size);
    });

    it("an old store's row (the whole text, no formula named) reads as before", async () => {
      const text = canonicalJson({ formula: FORMULA, inputs: { old: true } });
      const seal = sealText(text);
      const leafIndex = await store.db.transaction().execute(async (trx) => {
        const first = await store.log.append(trx, [seal], now);
        await insertRecord(trx, {
          seal,
          kind: "score",
          agent_id: "old",
          season_id: "s1",
          body: text,
          signer: null,
          signature: null,
          cosignature: null,
          leaf_index: first,
          received_at: now++,
        });
        return first;
      });
      for (const read of await Promise.all(readers(seal, "old", leafIndex))) expect(read).to.equal(text);
    });
  });
}
