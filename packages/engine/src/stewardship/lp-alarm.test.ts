import { expect } from "chai";
import type { LpLockReading } from "@augur/scorer";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { DAY, fakeSource, HISTORY_DAY0, writeScriptedHistory } from "../../test-support/stewardship/testing";
import { recordStewardshipDays } from "./days";
import { currentLpLockAlarm } from "./lp-alarm";

const LOCK = `0x${"11".repeat(20)}`;
const OPERATOR = `0x${"22".repeat(20)}`;
const reading = (holder: string): LpLockReading => ({
  lock: LOCK,
  positionManager: `0x${"33".repeat(20)}`,
  position: "7",
  unlockAt: HISTORY_DAY0 + 365 * DAY,
  holder,
  liquidity: "1000",
  block: 100,
});

for (const backend of testBackends()) {
  describe(`the LP timelock's public alarm on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
      await writeScriptedHistory(store);
    });
    afterEach(async () => store.close());

    it("is the run of sealed days whose reading raised it, from its first day; gone once a day reads clean", async () => {
      const source = fakeSource();
      let holder = LOCK;
      const watched = { ...source, lpLock: async () => reading(holder) };
      source.finalThrough = HISTORY_DAY0 + DAY; // day 0 closes: in place
      await recordStewardshipDays(store, watched, HISTORY_DAY0 + 9 * DAY);
      expect(await currentLpLockAlarm(store.db)).to.equal(null);

      holder = OPERATOR; // the position leaves the lock before its expiry
      source.finalThrough = HISTORY_DAY0 + 3 * DAY; // days 1 and 2 close in one pass
      await recordStewardshipDays(store, watched, HISTORY_DAY0 + 9 * DAY);
      const reason = `the position 7 left the lock before its expiry: it is held by ${OPERATOR}`;
      expect(await currentLpLockAlarm(store.db)).to.deep.equal({ since: "2027-01-17", reason });
    });
  });
}
