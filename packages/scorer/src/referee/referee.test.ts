import { expect } from "chai";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { seal } from "../seal";
import { coinBit, coinStream, cohortSeed } from "./coin-stream";
import { formatIsoHour, parseIsoHour } from "./hours";
import { type Direction, parseRefereeInput, type RefereeInput, type RefereePrediction } from "./input";
import { refereeLeaderboardJson } from "./json";
import { muTable } from "./mu";
import {
  compareLeaderboardRows,
  refereeAgent,
  refereeLeaderboard,
  scoreSchedule,
  UnknownAgentError,
} from "./referee";
import { agentSchedule, type ScoredCall } from "./schedule";
import { syntheticSeason } from "./synthetic-input";

const h0 = parseIsoHour("2026-11-30T00:00:00Z")!;
const at = (h: number) => formatIsoHour(h0 + h);

/** TSLA: 100 → 125 → 100, so for h = 1 raw moves are +0.25 and −0.2, and mu = 0.025. */
function twoMoveSeason(
  predictions: Omit<RefereePrediction, "pair">[],
  closes = [100, 125, 100],
): RefereeInput {
  return {
    epoch: 1,
    closes: { "TSLA/USDG": closes.map((close, h) => ({ at: at(h), close })) },
    predictions: predictions.map((p) => ({ ...p, pair: "TSLA/USDG" })),
  };
}

const call = (agent: string, slotHour: number, direction: Direction, size: number, horizon_h = 1) => ({
  agent,
  slot: at(slotHour),
  horizon_h,
  direction,
  size,
});

/** Coin bits of the pinned stream, computed here with node:crypto alone. */
function referenceBits(epoch: string, agent: string, count: number): number[] {
  const seed = createHash("sha256").update(`OAIA|${epoch}|${agent}`).digest();
  const blocks = Math.ceil(count / 256);
  const bytes = Buffer.concat(
    Array.from({ length: blocks }, (_, i) => {
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(i);
      return createHash("sha256").update(seed).update(counter).digest();
    }),
  );
  return Array.from({ length: count }, (_, i) => (bytes[i >> 3]! >> (7 - (i & 7))) & 1);
}

describe("referee: hand-computed cases", () => {
  it("n = 1: monkey m's coin is stream bit m; the ones that also say up tie, the rest fall below", () => {
    const result = refereeAgent(parseRefereeInput(twoMoveSeason([call("alice", 0, "up", 100)])), "alice");
    const bits = referenceBits("1", "alice", 2048);
    const up = bits.filter((b) => b === 1).length;
    expect(up).to.equal(1006); // pinned: sha256 stream of OAIA|1|alice
    expect(result.monkeysEqual).to.equal(up);
    expect(result.monkeysBelow).to.equal(2048 - up);
    expect(result.percentile).to.equal((100 * (2048 - up + up / 2)) / 2048);
    expect(result.percentile).to.equal(75.439453125);
    expect(result.sumR).to.equal(0.225); // (0.25 − 0.025) × 100/100, in units of 10⁻¹²
    expect(result.scoredCalls).to.equal(1);
    expect(result.status).to.equal("proving");
  });

  it("n = 2: monkey m reads bits 2m and 2m + 1; a right-right agent ties only the pattern 10", () => {
    // Call 0: up, size 100, r = +0.225. Call 1: down, size 40, raw −0.2: r = −(−0.2 − 0.025) × 0.4 = +0.09.
    const input = parseRefereeInput(
      twoMoveSeason([call("alice", 1, "down", 40), call("alice", 0, "up", 100)]),
    );
    const result = refereeAgent(input, "alice");
    const bits = referenceBits("1", "alice", 4096);
    const pattern = (a: number, b: number) =>
      Array.from({ length: 2048 }, (_, m) => bits[2 * m] === a && bits[2 * m + 1] === b).filter(Boolean)
        .length;
    expect([pattern(0, 0), pattern(0, 1), pattern(1, 0), pattern(1, 1)]).to.deep.equal([530, 510, 511, 497]);
    expect(result.sumR).to.equal(0.315);
    expect(result.monkeysEqual).to.equal(511);
    expect(result.percentile).to.equal((100 * (2048 - 511 + 511 / 2)) / 2048);
    expect(result.percentile).to.equal(87.5244140625);
    expect(result.monkeySumsR[0]).to.equal(bits[0] ? (bits[1] ? 0.135 : 0.315) : bits[1] ? -0.315 : -0.135);
  });

  it("n = 2, right then wrong: Σr = 0.135 ties the monkeys that said up twice", () => {
    const input = parseRefereeInput(twoMoveSeason([call("alice", 0, "up", 100), call("alice", 1, "up", 40)]));
    const result = refereeAgent(input, "alice");
    expect(result.sumR).to.equal(0.135);
    expect([result.monkeysBelow, result.monkeysEqual]).to.deep.equal([530 + 510, 497]);
    expect(result.percentile).to.equal(62.9150390625);
  });

  it("does not score or count a call whose slot + horizon has no close, wherever it sorts", () => {
    const scored = [call("alice", 1, "down", 40), call("alice", 0, "up", 100)];
    const pending = call("alice", 0, "up", 100, 5); // sorts between the two scored calls
    const withPending = refereeAgent(parseRefereeInput(twoMoveSeason([...scored, pending])), "alice");
    const without = refereeAgent(parseRefereeInput(twoMoveSeason(scored)), "alice");
    expect(withPending.pendingCalls).to.equal(1);
    expect(withPending.scoredCalls).to.equal(2);
    expect(withPending.percentile).to.equal(without.percentile);
    expect([...withPending.monkeySumsR]).to.deep.equal([...without.monkeySumsR]);
  });

  it("is proving under 10 scored calls and ranked from 10", () => {
    const closes = Array.from({ length: 12 }, (_, h) => 100 + ((h * 7) % 5));
    const calls = (k: number) => Array.from({ length: k }, (_, h) => call("a", h, "up", 50));
    expect(refereeAgent(parseRefereeInput(twoMoveSeason(calls(9), closes)), "a").status).to.equal("proving");
    expect(refereeAgent(parseRefereeInput(twoMoveSeason(calls(10), closes)), "a").status).to.equal("ranked");
  });

  it("sums exactly in arbitrary precision when outcomes pass 2⁵³ units, with the same coins", () => {
    // raw = 9,999 on one call: 10¹⁶ units, beyond exact doubles; n = 1, so the result is the n = 1 case.
    const result = refereeAgent(
      parseRefereeInput(twoMoveSeason([call("alice", 0, "up", 100)], [1, 10_000, 1])),
      "alice",
    );
    expect(result.monkeysEqual).to.equal(1006);
    expect(result.percentile).to.equal(75.439453125);
  });

  it("takes the exact path when doubles would round: units 2⁵³, 1, 1 called up, up, down sum to 2⁵³", () => {
    // In doubles 2⁵³ + 1 rounds to 2⁵³ and the agent would sum to 2⁵³ − 1; only bigints keep it at 2⁵³.
    const units = [2 ** 53, 1, 1];
    const signs = [1, 1, -1] as const;
    const calls = units.map((upUnits, c) => ({ upUnits, sign: signs[c] }) as unknown as ScoredCall);
    const result = scoreSchedule("7", 7, { agent: "big", calls, pendingCalls: 0 });
    const bits = referenceBits("7", "big", 3 * 2048);
    const exact = Array.from({ length: 2048 }, (_, m) =>
      units.reduce((sum, q, c) => sum + (bits[3 * m + c] ? 1n : -1n) * BigInt(q), 0n),
    );
    const agent = 2n ** 53n;
    const below = exact.filter((s) => s < agent).length;
    const equal = exact.filter((s) => s === agent).length;
    expect([result.monkeysBelow, result.monkeysEqual]).to.deep.equal([below, equal]);
    expect(equal).to.be.above(0); // the up-down-up and up-up-down monkeys tie exactly
    expect(result.percentile).to.equal((100 * (below + equal / 2)) / 2048);
    expect(result.sumR).to.equal(2 ** 53 / 1e12);
    expect([...result.monkeySumsR]).to.deep.equal(exact.map((s) => Number(s) / 1e12));
    expect(result.status).to.equal("proving");
  });

  it("refuses closes so far apart that the outcome overflows, naming the prediction", () => {
    const input = parseRefereeInput(twoMoveSeason([call("alice", 0, "up", 100)], [1e-300, 1e300, 1]));
    expect(() => refereeAgent(input, "alice")).to.throw(/^predictions\[0\]: outcome out of range/);
  });

  it("a 0-size call is scored, counted and shadowed, and moves no sum", () => {
    const result = refereeAgent(parseRefereeInput(twoMoveSeason([call("alice", 0, "up", 0)])), "alice");
    expect(result.scoredCalls).to.equal(1);
    expect(result.sumR).to.equal(0);
    expect(result.percentile).to.equal(50); // every monkey ties
  });

  it("refuses an agent the input does not know", () => {
    const input = parseRefereeInput(twoMoveSeason([call("alice", 0, "up", 0)]));
    expect(() => refereeAgent(input, "bob")).to.throw(UnknownAgentError, 'agent "bob" has no predictions');
    const error = (() => {
      try {
        refereeAgent(input, "bob");
      } catch (e) {
        return e as UnknownAgentError;
      }
    })();
    expect([error?.code, error?.details]).to.deep.equal(["UNKNOWN_AGENT", { agent: "bob" }]);
  });
});

describe("referee: leaderboard order", () => {
  const row = (agent: string, status: "ranked" | "proving", percentile: number, sumR: number) => ({
    agent,
    status,
    percentile,
    sumR,
  });

  it("ranked before proving, then percentile high to low, then Σr high to low, then agent id", () => {
    const cases: [ReturnType<typeof row>, ReturnType<typeof row>][] = [
      [row("z", "ranked", 1, -5), row("a", "proving", 99, 5)],
      [row("z", "ranked", 60, -5), row("a", "ranked", 40, 5)],
      [row("z", "proving", 60, -5), row("a", "proving", 40, 5)],
      [row("z", "ranked", 50, 0.2), row("a", "ranked", 50, 0.1)],
      [row("a", "ranked", 50, 0.1), row("b", "ranked", 50, 0.1)],
      [row("Z", "ranked", 50, 0.1), row("a", "ranked", 50, 0.1)],
    ];
    for (const [first, second] of cases) {
      const label = `${JSON.stringify(first)} before ${JSON.stringify(second)}`;
      expect(compareLeaderboardRows(first, second), label).to.be.below(0);
      expect(compareLeaderboardRows(second, first), label).to.be.above(0);
    }
    expect(compareLeaderboardRows(row("a", "ranked", 50, 0.1), row("a", "ranked", 50, 0.1))).to.equal(0);
  });

  it("orders a real board that way, which is neither the order of Σr nor of percentile alone", () => {
    const season = syntheticSeason({ seed: 7, agents: 8, predictionsPerAgent: 16, hours: 48, pairs: 2 });
    // Two agents keep only 6 calls, so the board mixes proving and ranked rows.
    const kept = new Map<string, number>();
    const predictions = season.predictions.filter((p) => {
      const n = (kept.get(p.agent) ?? 0) + 1;
      kept.set(p.agent, n);
      return !["agent-1", "agent-4"].includes(p.agent) || n <= 6;
    });
    const rows = refereeLeaderboard(parseRefereeInput({ ...season, predictions })).agents;
    // Pinned: agent-0 has the largest Σr but the third percentile; proving agent-4 (65.33)
    // outscores ranked agent-3 (65.23) and still follows it.
    expect(rows.map((r) => [r.agent, r.status, r.percentile])).to.deep.equal([
      ["agent-5", "ranked", 94.091796875],
      ["agent-2", "ranked", 91.4306640625],
      ["agent-0", "ranked", 78.3203125],
      ["agent-7", "ranked", 76.708984375],
      ["agent-3", "ranked", 65.234375],
      ["agent-6", "ranked", 37.109375],
      ["agent-4", "proving", 65.33203125],
      ["agent-1", "proving", 40.966796875],
    ]);
    expect(rows[2]!.sumR).to.equal(Math.max(...rows.map((r) => r.sumR)));
  });
});

describe("referee: distribution and determinism", () => {
  it("an agent whose calls are the monkeys' own coin flips lands near the 50th percentile on average", () => {
    const season = syntheticSeason({ seed: 7, agents: 400, predictionsPerAgent: 20, hours: 200 });
    const input = parseRefereeInput(season);
    const mu = muTable(input);
    const directions = season.predictions.map((p) => p.direction);
    for (const agent of new Set(season.predictions.map((p) => p.agent))) {
      const mine = input.predictions.filter((p) => p.agent === agent);
      const { calls } = agentSchedule(input, mu, agent, mine);
      // The agent plays "monkey 2048": the next run of bits of its own stream after the cohort's.
      const stream = coinStream(cohortSeed(input.epochText, agent), calls.length, 2049);
      calls.forEach((c, i) => {
        directions[c.prediction.row] = coinBit(stream, 2048 * calls.length + i) ? "up" : "down";
      });
    }
    const monkeyLike = {
      ...season,
      predictions: season.predictions.map((p, i) => ({ ...p, direction: directions[i]! })),
    };
    const percentiles = refereeLeaderboard(parseRefereeInput(monkeyLike)).agents.map((a) => a.percentile);
    const mean = percentiles.reduce((s, p) => s + p, 0) / percentiles.length;
    expect(mean).to.be.within(45, 55); // σ of the mean ≈ 28.9 / √400 ≈ 1.4
    const lowQuarter = percentiles.filter((p) => p < 25).length / percentiles.length;
    expect(lowQuarter).to.be.within(0.18, 0.32);
  });

  it("gives the same leaderboard, bit for bit, on every run", () => {
    const season = syntheticSeason({ seed: 3, agents: 5, predictionsPerAgent: 20, hours: 48, pairs: 2 });
    const first = refereeLeaderboardJson(refereeLeaderboard(parseRefereeInput(season)), seal(season));
    const again = refereeLeaderboardJson(
      refereeLeaderboard(parseRefereeInput(JSON.parse(JSON.stringify(season)))),
      seal(season),
    );
    expect(again).to.deep.equal(first);
    expect(seal(again)).to.equal(seal(first));
    // Pinned: any change to the method, the stream or the arithmetic changes this seal.
    expect(seal(first)).to.equal("0x232b8f9cbbb21509a405ac5e2ced66bf1915a05bdc6a9e1f124a9f4cc134a5a1");
  });
});

/** Two pairs over 12 hours and up to 40 calls; `settled` keeps every slot + horizon inside them. */
function seasonArbitrary(options: { settled?: boolean; minCalls?: number } = {}) {
  return fc
    .record({
      closes: fc.array(fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 12, maxLength: 12 }), {
        minLength: 2,
        maxLength: 2,
      }),
      predictions: fc.array(
        fc.record({
          agent: fc.constantFrom("a", "b", "c"),
          slot: fc.integer({ min: 0, max: options.settled ? 7 : 11 }),
          pair: fc.integer({ min: 0, max: 1 }),
          horizon_h: fc.integer({ min: 1, max: 4 }),
          direction: fc.constantFrom<Direction>("up", "down"),
          size: fc.integer({ min: options.settled ? 1 : 0, max: 100 }),
        }),
        { minLength: options.minCalls ?? 0, maxLength: 40 },
      ),
    })
    .map(({ closes, predictions }): RefereeInput => {
      const pairs = ["AAPL/USDG", "TSLA/USDG"];
      return {
        epoch: "prop",
        closes: Object.fromEntries(
          pairs.map((pair, i) => [pair, closes[i]!.map((cents, h) => ({ at: at(h), close: cents / 100 }))]),
        ),
        predictions: predictions.map((p) => ({ ...p, slot: at(p.slot), pair: pairs[p.pair]! })),
      };
    });
}

/** One row per (agent, slot, pair, horizon), so no two calls need the input-order tie-break. */
function uniqueCalls(input: RefereeInput): RefereeInput {
  const seen = new Set<string>();
  const predictions = input.predictions.filter((p) => {
    const key = JSON.stringify([p.agent, p.slot, p.pair, p.horizon_h]);
    return !seen.has(key) && seen.add(key);
  });
  return { ...input, predictions };
}

const board = (input: RefereeInput) =>
  refereeLeaderboardJson(refereeLeaderboard(parseRefereeInput(input)), "0x00").agents;

describe("referee: properties", () => {
  it("percentile is in [0, 100]; scored + pending = the agent's calls; status follows the count", () => {
    fc.assert(
      fc.property(seasonArbitrary(), (input) => {
        for (const row of board(input)) {
          expect(row.percentile).to.be.within(0, 100);
          const calls = input.predictions.filter((p) => p.agent === row.agent).length;
          expect(row.scored_calls + row.pending_calls).to.equal(calls);
          expect(row.status).to.equal(row.scored_calls >= 10 ? "ranked" : "proving");
        }
      }),
    );
  });

  it("is invariant to the order the predictions are listed in", () => {
    fc.assert(
      fc.property(
        seasonArbitrary()
          .map(uniqueCalls)
          .chain((input) =>
            fc.tuple(
              fc.constant(input),
              fc.shuffledSubarray([...input.predictions], { minLength: input.predictions.length }),
            ),
          ),
        ([input, shuffled]) => {
          expect(board({ ...input, predictions: shuffled })).to.deep.equal(board(input));
        },
      ),
      { numRuns: Math.ceil(fc.readConfigureGlobal().numRuns! / 2) },
    );
  });

  it("with repeated calls, only the relative order of the repeats matters (input order breaks ties)", () => {
    fc.assert(
      fc.property(seasonArbitrary(), (input) => {
        // A stable sort by agent moves other agents' rows around but keeps each agent's order.
        const regrouped = [...input.predictions].sort((x, y) =>
          x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : 0,
        );
        expect(board({ ...input, predictions: regrouped })).to.deep.equal(board(input));
      }),
      { numRuns: Math.ceil(fc.readConfigureGlobal().numRuns! / 2) },
    );
  });

  it("flipping every direction of a skilled agent moves it to the other tail", () => {
    fc.assert(
      fc.property(seasonArbitrary({ settled: true, minCalls: 12 }), (season) => {
        // Skilled: calls every move the right way, read from the outcome each call would earn up.
        const input = parseRefereeInput({
          ...season,
          predictions: season.predictions.map((p) => ({ ...p, agent: "s" })),
        });
        const { calls } = agentSchedule(input, muTable(input), "s", input.predictions);
        const decisive = calls.filter((c) => c.upUnits !== 0);
        fc.pre(decisive.length >= 10);
        const skilled: RefereePrediction[] = decisive.map((c) => ({
          ...season.predictions[c.prediction.row]!,
          agent: "s",
          direction: c.upUnits > 0 ? "up" : "down",
        }));
        const flipped = skilled.map((p) => ({
          ...p,
          direction: (p.direction === "up" ? "down" : "up") as Direction,
        }));
        const [best] = board({ ...season, predictions: skilled });
        const [worst] = board({ ...season, predictions: flipped });
        expect(best!.percentile).to.be.above(95);
        expect(worst!.percentile).to.be.below(5);
        expect(worst!.sum_r).to.equal(-best!.sum_r);
      }),
      { numRuns: Math.ceil(fc.readConfigureGlobal().numRuns! / 2) },
    );
  });
});
