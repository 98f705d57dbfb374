import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { makeSeason } from "./fixture";
import { validateSeasonInput } from "./input";

const valid = () =>
  JSON.parse(
    JSON.stringify(
      makeSeason([
        {
          id: "a",
          navs: [100, 101, 102],
          trades: [{ at: "2026-11-01T01:00:00Z", asset: "X", side: "buy", quantity: 1, price: "180.50" }],
        },
      ]),
    ),
  );

function rejects(mutate: (input: ReturnType<typeof valid>) => void, message: string) {
  const input = valid();
  mutate(input);
  expect(() => validateSeasonInput(input))
    .to.throw(InvalidInputError)
    .with.property("shortMessage", message);
}

describe("season.json validation", () => {
  it("accepts a valid season, decimals as numbers or decimal strings", () => {
    const input = valid();
    expect(validateSeasonInput(input)).to.equal(input);
  });

  it("names the field and the row of a bad value", () => {
    rejects((i) => (i.snapshots[2].nav = -5), "snapshots[2].nav: must be a positive decimal number");
    rejects((i) => (i.snapshots[1].nav = "1e3"), "snapshots[1].nav: must be a decimal number");
    rejects((i) => (i.snapshots[0].invested = 1.5), "snapshots[0].invested: must be a number in [0, 1]");
    rejects(
      (i) => (i.snapshots[0].at = "2026-11-01 00:00"),
      "snapshots[0].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
    );
    rejects(
      (i) => (i.decisions[3].decider = "boss"),
      'decisions[3].decider: must be one of "agent", "protective_exit", "system_hold"',
    );
    rejects((i) => (i.trades[0].side = "short"), 'trades[0].side: must be one of "buy", "sell"');
    rejects((i) => (i.trades[0].price = 0), "trades[0].price: must be a positive decimal number");
    rejects(
      (i) => i.calls.push({ agent: "a", resolved_at: "2026-11-02T00:00:00Z", confidence: 2, outcome: "hit" }),
      "calls[0].confidence: must be a number in [0, 1]",
    );
    rejects(
      (i) => (i.agents[0].style = "yolo"),
      'agents[0].style: must be one of "momentum", "mean-reversion", "trend-following", "market-neutral", "discretionary"',
    );
    rejects(
      (i) =>
        i.prior_scores.push({
          agent: "b",
          season_id: "s0",
          performance: 50,
          seal: "0x12",
          sealed_at: "2026-10-01T00:00:00Z",
        }),
      "prior_scores[0].seal: must be 0x followed by 64 lowercase hex digits",
    );
  });

  it("refuses missing and unknown fields, unknown agents and duplicate snapshot times", () => {
    rejects((i) => delete i.snapshots[1].flow, "snapshots[1].flow: is required");
    rejects((i) => (i.snapshots[1].fee = 1), "snapshots[1].fee: is not a known field");
    rejects(
      (i) => (i.snapshots[1].agent = "ghost"),
      'snapshots[1].agent: unknown agent "ghost" (not in agents)',
    );
    rejects(
      (i) => (i.snapshots[1].at = i.snapshots[0].at),
      'snapshots[1].at: duplicate snapshot time for agent "a"',
    );
    rejects(
      // Out of time order first, then a repeat of the first row's time.
      (i) =>
        ([i.snapshots[0].at, i.snapshots[1].at, i.snapshots[2].at] = [
          i.snapshots[1].at,
          i.snapshots[0].at,
          i.snapshots[1].at,
        ]),
      'snapshots[2].at: duplicate snapshot time for agent "a"',
    );
    rejects((i) => i.agents.push({ ...i.agents[0] }), 'agents[1].id: duplicate agent id "a"');
    rejects((i) => delete i.calls, "$.calls: is required");
    rejects((i) => (i.season.end = i.season.start), "season.end: must be after season.start");
  });
});
