import { expect } from "chai";
import { FOLD_EVERY_SECONDS, foldDue, foldHour } from "./folds";

const HOUR = 3600;
/** Day 20,000 (2024-10-04) at 00:00 UTC. */
const DAY = 20_000 * 24 * HOUR;

describe("foldDue: when an agent's score and risk folds are stored", () => {
  it("a fold never stored is due at any hour", () => {
    for (let h = 0; h < 24; h++) expect(foldDue("agent-00001", DAY + h * HOUR, null)).to.equal(true);
  });

  it("then once a day in the agent's own hour; at any hour once the last stored is a day old", () => {
    const id = "agent-00000";
    expect(foldHour(id)).to.equal(11);
    const stored = DAY + 8 * HOUR;
    const due = (h: number) => foldDue(id, DAY + h * HOUR, stored);
    expect([8, 9, 10, 11, 12, 31, 32, 35].map(due)).to.deep.equal([
      false,
      false,
      false,
      true,
      false,
      false,
      true,
      true,
    ]);
    expect(foldDue(id, stored + FOLD_EVERY_SECONDS - 1, stored)).to.equal(false);
    // Stored in its hour: the next time is its hour a day later.
    const inHour = DAY + 11 * HOUR;
    expect(foldDue(id, inHour, inHour)).to.equal(false);
    expect(foldDue(id, inHour + HOUR, inHour)).to.equal(false);
    expect(foldDue(id, inHour + 24 * HOUR, inHour)).to.equal(true);
  });

  it("spreads 10,000 agents over the day: every hour stores between 3.5 % and 4.8 % of them", () => {
    const perHour = new Array<number>(24).fill(0);
    for (let a = 0; a < 10_000; a++) perHour[foldHour(`agent-${String(a).padStart(5, "0")}`)]! += 1;
    expect(Math.min(...perHour)).to.be.above(350);
    expect(Math.max(...perHour)).to.be.below(480);
  });
});
