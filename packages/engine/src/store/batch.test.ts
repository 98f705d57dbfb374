import { expect } from "chai";
import { insertBatched, MAX_PARAMETERS } from "./batch";
import type { Store } from "./open";
import { testBackends } from "../../test-support/store/testing";

for (const backend of testBackends()) {
  describe(`insertBatched on ${backend.name}`, () => {
    let store: Store;
    before(async () => (store = await backend.open()));
    after(async () => store.close());

    const stored = async (level: number) =>
      store.db
        .selectFrom("merkle_nodes")
        .select(["level", "idx", "hash"])
        .where("level", "=", level)
        .orderBy("idx")
        .execute();

    it("a shape inserted again (its INSERT compiled once) stores each call's own values, keys in any order", async () => {
      await insertBatched(store.db, "merkle_nodes", [
        { level: 40, idx: 1, hash: "a" },
        { level: 40, idx: 2, hash: "b" },
      ]);
      await store.db.transaction().execute(async (trx) => {
        await insertBatched(trx, "merkle_nodes", [
          { level: 40, idx: 3, hash: "c" },
          { hash: "d", idx: 4, level: 40 },
        ]);
      });
      expect(await stored(40)).to.deep.equal([
        { level: 40, idx: 1, hash: "a" },
        { level: 40, idx: 2, hash: "b" },
        { level: 40, idx: 3, hash: "c" },
        { level: 40, idx: 4, hash: "d" },
      ]);
    });

    it("rows past one statement's parameter budget go in a second statement, every row once", async () => {
      const count = Math.floor(MAX_PARAMETERS / 3) + 5;
      const rows = Array.from({ length: count }, (_, i) => ({ level: 41, idx: i, hash: `h${i}` }));
      await insertBatched(store.db, "merkle_nodes", rows);
      await insertBatched(store.db, "merkle_nodes", [{ level: 41, idx: count, hash: "last" }]);
      const back = await stored(41);
      expect(back).to.have.length(count + 1);
      expect(back.every((row, i) => row.idx === i && row.hash === (i === count ? "last" : `h${i}`))).to.equal(
        true,
      );
    });
  });
}
