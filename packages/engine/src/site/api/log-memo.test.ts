import { expect } from "chai";
import { appendEngineRecords } from "../../records/append";
import { addTestSeason } from "../../records/testing";
import { openStore } from "../../store/open";
import { LogSizeMemo } from "./log-memo";

describe("LogSizeMemo", () => {
  it("computes once while the log is unchanged and again after an append", async () => {
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      await addTestSeason(store);
      const memo = new LogSizeMemo<number>();
      let calls = 0;
      const compute = async () => ++calls;
      expect(await memo.get(store.db, "s1", compute)).to.equal(1);
      expect(await memo.get(store.db, "s1", compute)).to.equal(1);
      expect(await memo.get(store.db, "other", compute)).to.equal(2);
      await store.db
        .transaction()
        .execute((trx) =>
          appendEngineRecords(trx, [{ kind: "call", agentId: "a", seasonId: "s1", body: { n: 1 } }], 1),
        );
      expect(await memo.get(store.db, "s1", compute)).to.equal(3);
      expect(await memo.get(store.db, "s1", compute)).to.equal(3);
    } finally {
      await store.close();
    }
  });
});
