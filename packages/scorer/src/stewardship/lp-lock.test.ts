import { expect } from "chai";
import { lpLockAlarm, type LpLockReading } from "./lp-lock";

const LOCK = `0x${"11".repeat(20)}`;
const OPERATOR = `0x${"22".repeat(20)}`;
const UNLOCK = 1_900_000_000;
const reading: LpLockReading = {
  lock: LOCK,
  positionManager: `0x${"33".repeat(20)}`,
  position: "7",
  unlockAt: UNLOCK,
  holder: LOCK,
  liquidity: "1000000",
  block: 100,
};

describe("stewardship: the operator will not withdraw … the LP timelock before its expiry", () => {
  it("is quiet while the lock holds the position with its liquidity", () => {
    expect(lpLockAlarm(reading, UNLOCK - 1)).to.equal(null);
    expect(lpLockAlarm({ ...reading, block: 200 }, UNLOCK - 1, reading)).to.equal(null);
    expect(lpLockAlarm({ ...reading, liquidity: "1000001" }, UNLOCK - 1, reading)).to.equal(null);
  });

  it("raises the alarm when the position leaves the lock before expiry, one second before included", () => {
    expect(lpLockAlarm({ ...reading, holder: OPERATOR }, UNLOCK - 1)).to.equal(
      `the position 7 left the lock before its expiry: it is held by ${OPERATOR}`,
    );
  });

  it("raises the alarm when liquidity is drawn from the locked position before expiry", () => {
    expect(lpLockAlarm({ ...reading, liquidity: "999999" }, UNLOCK - 1, reading)).to.equal(
      "the position's liquidity fell from 1000000 to 999999 before expiry",
    );
  });

  it("raises the alarm when the lock, the position or the expiry changes under the monitor", () => {
    expect(lpLockAlarm({ ...reading, position: "8" }, UNLOCK - 1, reading)).to.match(
      /lock or position changed/,
    );
    // The position moved to another lock that holds it: not the lock the monitor watches.
    const OTHER = `0x${"44".repeat(20)}`;
    expect(lpLockAlarm({ ...reading, lock: OTHER, holder: OTHER }, UNLOCK - 1, reading)).to.equal(
      `the monitored lock or position changed before expiry (${LOCK} #7 → ${OTHER} #7)`,
    );
    expect(lpLockAlarm({ ...reading, unlockAt: UNLOCK - 10 }, UNLOCK - 20, reading)).to.equal(
      `the lock's expiry changed from ${UNLOCK} to ${UNLOCK - 10}`,
    );
  });

  it("is quiet from the expiry on: the operator may withdraw then", () => {
    expect(lpLockAlarm({ ...reading, holder: OPERATOR, liquidity: "0" }, UNLOCK, reading)).to.equal(null);
  });
});
