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

  it("refuses every other malformed field with its own message, row and field named", () => {
    const prior = {
      agent: "b",
      season_id: "s0",
      performance: 50,
      seal: "0x" + "ab".repeat(32),
      sealed_at: "2026-10-01T00:00:00Z",
    };
    const call = { agent: "a", resolved_at: "2026-11-02T00:00:00Z", confidence: 0.5, outcome: "hit" };
    const cases: [(i: ReturnType<typeof valid>) => void, string][] = [
      [(i) => (i.inputs_log_size = -1), "inputs_log_size: must be null or an integer ≥ 0"],
      [(i) => (i.inputs_log_size = 2.5), "inputs_log_size: must be null or an integer ≥ 0"],
      [(i) => (i.inputs_log_size = "7"), "inputs_log_size: must be null or an integer ≥ 0"],
      [(i) => (i.inputs_log_size = 2 ** 53), "inputs_log_size: must be null or an integer ≥ 0"],
      [(i) => (i.season = [i.season]), "season: must be an object"],
      [(i) => (i.season = null), "season: must be an object"],
      [(i) => (i.season = "s1"), "season: must be an object"],
      [(i) => (i.season.id = ""), "season.id: must be a non-empty string"],
      [(i) => (i.season.id = 7), "season.id: must be a non-empty string"],
      [(i) => (i.season.id = "s\uD800"), "season.id: must be valid Unicode (lone surrogate)"],
      [(i) => (i.season.id = "\uDC00s"), "season.id: must be valid Unicode (lone surrogate)"],
      [(i) => (i.season.id = "s\uD800x"), "season.id: must be valid Unicode (lone surrogate)"],
      [(i) => (i.season.id = "x\uDC00s"), "season.id: must be valid Unicode (lone surrogate)"],
      // Date.parse reads both; the pattern refuses an expanded year and anything after the Z.
      [
        (i) => (i.as_of = "+002026-11-01T00:00:00Z"),
        "as_of: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [
        (i) => (i.as_of = "2026-11-01T00:00:00Z\u0000"),
        "as_of: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [(i) => (i.season.end = "2026-10-31T23:59:59Z"), "season.end: must be after season.start"],
      [(i) => (i.as_of = "2026-10-31T23:59:59.999Z"), "as_of: must not be before season.start"],
      [(i) => (i.agents = {}), "agents: must be an array"],
      [(i) => (i.agents[0].creator = ""), "agents[0].creator: must be a non-empty string"],
      [(i) => (i.agents[0].active = "yes"), "agents[0].active: must be true or false"],
      [(i) => (i.agents[0].id = ""), "agents[0].id: must be a non-empty string"],
      [
        (i) => (i.snapshots[0].seal = "0x12"),
        "snapshots[0].seal: must be 0x followed by 64 lowercase hex digits",
      ],
      [(i) => (i.snapshots[2].flow = "-"), "snapshots[2].flow: must be a decimal number"],
      [(i) => (i.snapshots[2].flow = "01"), "snapshots[2].flow: must be a decimal number"],
      [(i) => (i.snapshots[2].flow = "1."), "snapshots[2].flow: must be a decimal number"],
      [(i) => (i.snapshots[2].flow = " 1"), "snapshots[2].flow: must be a decimal number"],
      [(i) => (i.snapshots[2].flow = "1 "), "snapshots[2].flow: must be a decimal number"],
      [(i) => (i.snapshots[2].flow = true), "snapshots[2].flow: must be a decimal number"],
      [(i) => (i.snapshots[2].flow = Infinity), "snapshots[2].flow: must be a decimal number"],
      [
        (i) => (i.snapshots[2].flow = 2 ** 53),
        "snapshots[2].flow: must be a decimal string when beyond ±(2^53 − 1) (I-JSON, RFC 7493)",
      ],
      [(i) => (i.snapshots[2].invested = "0.5"), "snapshots[2].invested: must be a number in [0, 1]"],
      [(i) => (i.snapshots[2].invested = -0.01), "snapshots[2].invested: must be a number in [0, 1]"],
      [
        (i) => (i.snapshots[2].at = "2026-11-01T02:00:00.1234Z"),
        "snapshots[2].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [
        (i) => (i.snapshots[2].at = "x2026-11-01T02:00:00Z"),
        "snapshots[2].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [
        (i) => (i.snapshots[2].at = "2026-11-01T02:00:00+00:00"),
        "snapshots[2].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [
        (i) => (i.snapshots[2].at = "2026-13-01T02:00:00Z"),
        "snapshots[2].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [(i) => (i.snapshots = [7]), "snapshots[0]: must be an object"],
      [
        (i) => (i.decisions[1].seal = "0x"),
        "decisions[1].seal: must be 0x followed by 64 lowercase hex digits",
      ],
      [(i) => (i.decisions[1].agent = "ghost"), 'decisions[1].agent: unknown agent "ghost" (not in agents)'],
      [
        (i) => (i.decisions[1].at = "yesterday"),
        "decisions[1].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [(i) => (i.decisions[1].asset = ""), "decisions[1].asset: must be a non-empty string"],
      [(i) => (i.decisions[1].action = ""), "decisions[1].action: must be a non-empty string"],
      [(i) => (i.decisions = "none"), "decisions: must be an array"],
      [(i) => (i.trades[0].seal = "0x12"), "trades[0].seal: must be 0x followed by 64 lowercase hex digits"],
      [(i) => (i.trades[0].agent = "ghost"), 'trades[0].agent: unknown agent "ghost" (not in agents)'],
      [(i) => (i.trades[0].at = ""), "trades[0].at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z"],
      [(i) => (i.trades[0].asset = ""), "trades[0].asset: must be a non-empty string"],
      [(i) => (i.trades[0].quantity = "0"), "trades[0].quantity: must be a positive decimal number"],
      [(i) => (i.trades[0].quantity = NaN), "trades[0].quantity: must be a decimal number"],
      [
        (i) => i.calls.push({ ...call, seal: 1 }),
        "calls[0].seal: must be 0x followed by 64 lowercase hex digits",
      ],
      [
        (i) => i.calls.push({ ...call, agent: "ghost" }),
        'calls[0].agent: unknown agent "ghost" (not in agents)',
      ],
      [
        (i) => i.calls.push({ ...call, resolved_at: "soon" }),
        "calls[0].resolved_at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [(i) => i.calls.push({ ...call, confidence: -0.5 }), "calls[0].confidence: must be a number in [0, 1]"],
      [
        (i) => i.calls.push({ ...call, outcome: "win" }),
        'calls[0].outcome: must be one of "hit", "miss", "void"',
      ],
      [(i) => i.calls.push({ ...call, extra: 1 }), "calls[0].extra: is not a known field"],
      [
        (i) => i.prior_scores.push({ ...prior, agent: "" }),
        "prior_scores[0].agent: must be a non-empty string",
      ],
      [
        (i) => i.prior_scores.push({ ...prior, season_id: "" }),
        "prior_scores[0].season_id: must be a non-empty string",
      ],
      [
        (i) => i.prior_scores.push({ ...prior, performance: 100.5 }),
        "prior_scores[0].performance: must be a number in [0, 100]",
      ],
      [
        (i) => i.prior_scores.push({ ...prior, performance: -1 }),
        "prior_scores[0].performance: must be a number in [0, 100]",
      ],
      [
        (i) => i.prior_scores.push({ ...prior, performance: "50" }),
        "prior_scores[0].performance: must be a number in [0, 100]",
      ],
      [
        (i) => i.prior_scores.push({ ...prior, sealed_at: "" }),
        "prior_scores[0].sealed_at: must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z",
      ],
      [
        (i) => i.prior_scores.push({ ...prior, seal: undefined }),
        "prior_scores[0].seal: must be 0x followed by 64 lowercase hex digits",
      ],
      [(i) => (i.prior_scores = null), "prior_scores: must be an array"],
    ];
    for (const [mutate, message] of cases) rejects(mutate, message);
  });

  it("accepts the boundary values of every range", () => {
    const input = valid();
    input.inputs_log_size = 0;
    input.as_of = input.season.start;
    input.season.id = "s\uD83D\uDE00"; // a surrogate pair (an emoji) is valid Unicode
    input.snapshots[0].invested = 0;
    input.snapshots[1].invested = 1;
    input.snapshots[2].flow = "-12.5";
    input.snapshots[2].nav = "0.001";
    input.snapshots[2].at = "2026-11-01T02:00:00.5Z";
    input.snapshots[0].seal = "0x" + "ab".repeat(32);
    input.calls.push(
      { agent: "a", resolved_at: "2026-11-02T00:00:00Z", confidence: 0, outcome: "miss" },
      { agent: "a", resolved_at: "2026-11-02T00:00:00Z", confidence: 1, outcome: "void" },
    );
    for (const performance of [0, 100])
      input.prior_scores.push({
        agent: "gone",
        season_id: "s0",
        performance,
        seal: "0x" + "cd".repeat(32),
        sealed_at: "2026-10-01T00:00:00Z",
      });
    input.agents.push({ id: "b", creator: "c", style: "momentum", active: false });
    input.decisions.push({
      agent: "b",
      at: "2026-11-01T00:00:00Z",
      decider: "system_hold",
      asset: "X",
      action: "hold",
    });
    expect(validateSeasonInput(input)).to.equal(input);
    expect(validateSeasonInput({ ...valid(), inputs_log_size: null })).to.have.property(
      "inputs_log_size",
      null,
    );
  });
});
