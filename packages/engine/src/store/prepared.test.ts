import { expect } from "chai";
import type { Kysely } from "kysely";
import { testBackends } from "../../test-support/store/testing";
import type { Store } from "./open";
import { preparedInsert, preparedQuery } from "./prepared";
import type { Database } from "./schema";

for (const backend of testBackends()) {
  describe(`preparedQuery on ${backend.name}`, () => {
    let store: Store;
    before(async () => (store = await backend.open()));
    after(async () => store.close());

    it("compiles once per database, its transactions included, and runs with each call's values", async () => {
      let builds = 0;
      const seasonName = preparedQuery((db: Kysely<Database>, id: string) => {
        builds += 1;
        return db.selectFrom("seasons").select("name").where("id", "=", id);
      }, 1);
      const insertSeason = preparedInsert("seasons", [
        "id",
        "name",
        "starts_at",
        "ends_at",
        "closed_at",
        "created_at",
      ]);
      const season = (id: string, name: string) => ({
        id,
        name,
        starts_at: 1,
        ends_at: 2,
        closed_at: null,
        created_at: 1,
      });
      await insertSeason(store.db, season("a", "first"));
      await store.db.transaction().execute(async (trx) => {
        await insertSeason(trx, season("b", "second"));
        expect(await seasonName(trx, "b")).to.deep.equal([{ name: "second" }]);
      });
      await store.db.transaction().execute(async (trx) => {
        expect(await seasonName(trx, "a")).to.deep.equal([{ name: "first" }]);
      });
      expect(await seasonName(store.db, "c")).to.deep.equal([]);
      expect(builds).to.equal(1);
    });

    it("refuses a build that puts a parameter into the SQL text rather than binding it", async () => {
      const inText = preparedQuery(
        (db: Kysely<Database>, _id: string) =>
          db.selectFrom("seasons").select("name").where("id", "=", "fixed"),
        1,
      );
      let refused: unknown;
      await inText(store.db, "x").catch((error: unknown) => (refused = error));
      expect(String(refused)).to.contain("every parameter must appear as a value");
    });
  });
}
