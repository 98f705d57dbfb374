import { expect } from "chai";
import fc from "fast-check";
import { seal } from "../seal";
import { AS_OF, fakeSeal, makeSeason, type AgentSpec } from "./fixture";
import { arbAgentSpec } from "./fixture-arb";
import { recomputeManifest } from "./recompute";
import { scoreSeason, scoreSeasonJson, SeasonScorer, type ScoreRow } from "./season";
import type { SeasonInput } from "./types";

const FIXED: AgentSpec = { id: "me", navs: [100, 101, 103, 102] };
const rowOf = (input: SeasonInput, id = "me"): ScoreRow =>
  scoreSeason(input).rows.find((r) => r.agent_id === id)!;
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
// Whole-season properties run FC_RUNS times like the rest (1,000; 10,000 in test:deep).
const seasonRuns = Number(process.env.FC_RUNS ?? 1000);

describe("augur season scoring", () => {
  describe("the seed's numbers, end to end from snapshots", () => {
    const performance = (navs: number[]) => rowOf(makeSeason([{ ...FIXED, navs }])).terms.performance;
    it("a flat season scores 50 on performance", () => expect(performance([100, 100, 100])).to.equal(50));
    it("a +4% season scores 70", () => expect(performance([100, 102, 104])).to.be.closeTo(70, 1e-9));
    it("+10% or better scores 100", () => expect(performance([100, 105, 110])).to.equal(100));
    it("-10% or worse scores 0", () => expect(performance([100, 95, 90])).to.equal(0));

    it("a creator's first agent before any call resolves weighs performance 0.41, risk 0.29, consistency 0.18, longevity 0.12", () => {
      const row = rowOf(makeSeason([FIXED]));
      const used = Object.fromEntries(Object.entries(row.weights_used).map(([k, v]) => [k, v.toFixed(2)]));
      expect(used).to.deep.equal({
        performance: "0.41",
        risk: "0.29",
        consistency: "0.18",
        longevity: "0.12",
      });
      expect(row.terms.calibration).to.equal(null);
      expect(row.terms.creator).to.equal(null);
    });

    it("a flat, fully invested season of a discretionary first agent scores 79.4", () => {
      // (0.35 × 50 + 0.25 × 100 + 0.15 × 100 + 0.10 × 100) / 0.85 = 79.41…, multiplier 1
      const row = rowOf(makeSeason([{ ...FIXED, navs: [100, 100, 100], invested: 1 }]));
      expect(row.score).to.equal(79.4);
      expect(row.rank).to.equal(1);
    });
  });

  it("names a snapshot's given seal (the engine's sealed record) in place of the row's own", () => {
    const input = makeSeason([FIXED]);
    const given = {
      ...input,
      snapshots: input.snapshots.map((s, i) => (i === 0 ? { ...s, seal: fakeSeal(42) } : s)),
    };
    expect(rowOf(given).manifest.inputs.first_snapshot_seal).to.equal(fakeSeal(42));
    expect(rowOf(input).manifest.inputs.first_snapshot_seal).to.equal(seal(input.snapshots[0]));
  });

  it("deposits and withdrawals do not count as returns", () => {
    // +2 % twice; then the same with 1,000 deposited and 540 withdrawn on the way.
    const plain = rowOf(makeSeason([{ ...FIXED, navs: [100, 102, 104.04] }]));
    const withFlows = rowOf(makeSeason([{ ...FIXED, navs: [100, 1102, 584.04], flows: [0, 1000, -540] }]));
    expect(withFlows.manifest.measured!.return).to.be.closeTo(plain.manifest.measured!.return, 1e-12);
    expect(withFlows.score).to.equal(plain.score);
  });

  describe("eligibility and null reasons", () => {
    it("protective exits and system holds do not count toward the five decisions", () => {
      const row = rowOf(makeSeason([{ ...FIXED, ownDecisions: 4, protectiveExits: 3, systemHolds: 3 }]));
      expect(row).to.include({ score: null, rank: null, reason: "too_few_own_decisions" });
      expect(row.manifest.inputs).to.include({ decision_count: 10, own_decision_count: 4 });
      expect(row.manifest.measured).to.equal(null);
      expect(Object.values(row.terms).every((t) => t === null)).to.equal(true);
    });

    it("fewer than three snapshots in the season: no score, reason too_few_snapshots", () => {
      const row = rowOf(makeSeason([{ ...FIXED, navs: [100, 120] }]));
      expect(row).to.include({ score: null, rank: null, reason: "too_few_snapshots", match: null });
    });

    it("counts only records inside the season up to as_of", () => {
      // Snapshots at hours 0..3 and decisions at hours 0..4; as_of at hour 2 leaves three of each.
      const early = rowOf(makeSeason([FIXED], { as_of: "2026-11-01T02:00:00Z" }));
      expect(early.manifest.inputs).to.include({ snapshot_count: 3, own_decision_count: 3 });
      expect(early.reason).to.equal("too_few_own_decisions");
      const later = rowOf(makeSeason([FIXED], { as_of: "2026-11-02T12:00:00Z" }));
      expect(later.manifest.inputs).to.include({ snapshot_count: 4, own_decision_count: 5 });
      expect(later.manifest.measured!.days).to.equal(1.5);
    });
  });

  it("counts no decision or call outside the season, on either side", () => {
    const season = makeSeason([
      {
        ...FIXED,
        calls: Array.from({ length: 6 }, (_, i) => ({
          resolved_at: `2026-11-0${i + 2}T00:00:00Z`,
          confidence: 0.5,
          outcome: "hit" as const,
        })),
      },
    ]);
    const outside = {
      ...season,
      decisions: [
        ...season.decisions,
        { agent: "me", at: "2026-10-31T23:00:00Z", decider: "agent" as const, asset: "TSLA", action: "hold" },
        { agent: "me", at: "2026-11-22T00:00:01Z", decider: "agent" as const, asset: "TSLA", action: "hold" },
      ],
      calls: [
        ...season.calls,
        { agent: "me", resolved_at: "2026-10-31T00:00:00Z", confidence: 0.9, outcome: "miss" as const },
        { agent: "me", resolved_at: "2026-11-23T00:00:00Z", confidence: 0.9, outcome: "miss" as const },
      ],
    };
    const row = rowOf(outside);
    expect(row.manifest.inputs).to.include({ decision_count: 5, own_decision_count: 5 });
    expect(row.manifest.measured!.calibration_calls).to.equal(6);
    expect(row.seal).to.equal(rowOf(season).seal);
  });

  it("refuses a row of an agent the season does not list, naming its table and row", () => {
    const season = makeSeason([FIXED]);
    const ghost = { agent: "ghost" };
    const tables = [
      ["snapshots", { ...season.snapshots[0]!, ...ghost }],
      ["decisions", { ...season.decisions[0]!, ...ghost }],
      ["trades", { asset: "TSLA", side: "buy", quantity: "1", price: "100", at: AS_OF, ...ghost }],
      ["calls", { resolved_at: AS_OF, confidence: 0.5, outcome: "hit", ...ghost }],
    ] as const;
    for (const [table, extra] of tables) {
      const input = { ...season, [table]: [...season[table], extra] } as SeasonInput;
      const index = season[table].length;
      expect(() => scoreSeason(input), table).to.throw(
        `${table}[${index}].agent: unknown agent "ghost" (not in agents)`,
      );
    }
  });

  it("ties share a rank (1, 1, 3) and rows sort by rank then agent id", () => {
    const out = scoreSeason(
      makeSeason([
        { id: "c", navs: [100, 100, 100] },
        { id: "b", navs: [100, 100, 100] },
        { id: "a", navs: [100, 99, 98] },
        { id: "d", navs: [100, 100] },
      ]),
    );
    expect(out.rows.map((r) => [r.agent_id, r.rank])).to.deep.equal([
      ["b", 1],
      ["c", 1],
      ["a", 3],
      ["d", null],
    ]);
    expect(Object.keys(out.rows[0]!)).to.deep.equal([
      "agent_id",
      "score",
      "rank",
      "reason",
      "terms",
      "weights_used",
      "match",
      "multiplier",
      "manifest",
      "seal",
    ]);
  });

  describe("the creator term", () => {
    const prior = (agent: string, performance: number, n: number, sealed_at: string) => ({
      agent,
      season_id: "s0",
      performance,
      seal: fakeSeal(n),
      sealed_at,
    });
    const specs: AgentSpec[] = [
      { ...FIXED, creator: "c" },
      { id: "sib1", creator: "c", navs: [100] },
      { id: "sib2", creator: "c", navs: [100] },
      { id: "retired", creator: "c", navs: [100], active: false },
      { id: "rival", creator: "other", navs: [100] },
    ];

    it("is the mean latest sealed performance of the creator's other active agents, each seal a creator input", () => {
      const row = rowOf(
        makeSeason(specs, {
          prior_scores: [
            prior("sib1", 40, 1, "2026-11-10T00:00:00Z"),
            prior("sib1", 60, 2, "2026-11-20T00:00:00Z"), // latest ≤ as_of wins
            prior("sib1", 99, 3, "2026-11-25T00:00:00Z"), // after as_of: ignored
            prior("sib2", 80, 4, "2026-10-01T00:00:00Z"), // an earlier season still counts
            prior("retired", 0, 5, "2026-11-20T00:00:00Z"), // not active
            prior("rival", 0, 6, "2026-11-20T00:00:00Z"), // another creator
            prior("me", 0, 7, "2026-11-20T00:00:00Z"), // never its own
          ],
        }),
      );
      expect(row.terms.creator).to.equal(70);
      expect(row.manifest.measured!.creator_inputs.map((c) => [c.agent, c.seal])).to.deep.equal([
        ["sib1", fakeSeal(2)],
        ["sib2", fakeSeal(4)],
      ]);
      expect(row.weights_used.creator).to.be.closeTo(0.05 / 0.9, 1e-12);
    });

    it("takes the latest row by time whatever the listing order, a row sealed at as_of, and on a tie the larger seal", () => {
      const siblings: AgentSpec[] = [
        { ...FIXED, creator: "c" },
        { id: "zeta", creator: "c", navs: [100] },
        { id: "alpha", creator: "c", navs: [100] },
        { id: "mid", creator: "c", navs: [100] },
      ];
      const row = rowOf(
        makeSeason(siblings, {
          prior_scores: [
            prior("zeta", 10, 1, AS_OF), // sealed exactly at as_of: counts
            prior("alpha", 20, 3, "2026-11-20T00:00:00Z"),
            prior("alpha", 90, 12, "2026-11-10T00:00:00Z"), // older, listed later, larger seal: ignored
            prior("mid", 30, 9, "2026-11-15T00:00:00Z"),
            prior("mid", 99, 8, "2026-11-15T00:00:00Z"), // same time, smaller seal: ignored
            prior("mid", 98, 7, "2026-11-15T00:00:00Z"),
          ],
        }),
      );
      expect(row.manifest.measured!.creator_inputs.map((c) => [c.agent, c.performance])).to.deep.equal([
        ["alpha", 20],
        ["mid", 30],
        ["zeta", 10],
      ]);
      expect(row.terms.creator).to.equal(20);
      const tieLast = rowOf(
        makeSeason(siblings.slice(0, 2), {
          prior_scores: [prior("zeta", 40, 4, AS_OF), prior("zeta", 50, 5, AS_OF)],
        }),
      );
      expect(tieLast.terms.creator).to.equal(50);
    });

    it("drops out while no other active agent of the creator has a sealed row", () => {
      expect(rowOf(makeSeason(specs)).terms.creator).to.equal(null);
    });
  });

  describe("properties over whole seasons", () => {
    const rivals = fc.tuple(
      arbAgentSpec("r1", fc.constant("rival")),
      arbAgentSpec("r2", fc.constant("rival")),
    );

    it("every term and the overall score lie in [0, 100]; eligible rows have a score, others a reason", () => {
      fc.assert(
        fc.property(fc.array(arbAgentSpec("x"), { minLength: 1, maxLength: 3 }), (specs) => {
          const out = scoreSeason(makeSeason(specs.map((s, i) => ({ ...s, id: `a${i}` }))));
          for (const row of out.rows) {
            for (const term of Object.values(row.terms)) if (term !== null) expect(term).to.be.within(0, 100);
            if (row.score === null) expect(row.reason).to.be.a("string");
            else {
              expect(row.score).to.be.within(0, 100);
              expect(row.reason).to.equal(null);
              expect(row.match).to.be.within(0, 1);
            }
          }
        }),
        { numRuns: seasonRuns },
      );
    });

    it("a rival's record never moves an agent's score or seal", () => {
      fc.assert(
        fc.property(arbAgentSpec("me"), rivals, rivals, (me, before, after) => {
          const a = rowOf(makeSeason([me, ...before]));
          const b = rowOf(makeSeason([me, ...after]));
          expect(b.score).to.equal(a.score);
          expect(b.seal).to.equal(a.seal);
        }),
        { numRuns: seasonRuns },
      );
    });

    it("scaling every NAV and flow by a constant leaves the score unchanged", () => {
      const scale = (spec: AgentSpec, c: number): AgentSpec => ({
        ...spec,
        navs: spec.navs.map((n) => n * c),
        flows: spec.flows?.map((f) => f * c),
      });
      fc.assert(
        fc.property(
          arbAgentSpec("me"),
          fc.integer({ min: -20, max: 20 }),
          fc.constantFrom(3, 10, 0.37, 1234.5),
          (me, k, c) => {
            const base = rowOf(makeSeason([me]));
            // A power of two scales exactly in binary floating point: every output is bit-identical.
            const exact = rowOf(makeSeason([scale(me, 2 ** k)]));
            expect(exact.score).to.equal(base.score);
            expect(exact.manifest.outputs).to.deep.equal(base.manifest.outputs);
            // Any other constant moves r_i by at most a few ulps: the terms agree to 1e-9.
            const other = rowOf(makeSeason([scale(me, c)]));
            expect(other.reason).to.equal(base.reason);
            for (const [name, term] of Object.entries(base.terms)) {
              const scaled = other.terms[name as keyof typeof base.terms];
              if (term === null) expect(scaled).to.equal(null);
              else expect(scaled).to.be.closeTo(term, 1e-9);
            }
            if (base.score !== null) expect(other.score).to.be.closeTo(base.score, 0.1 + 1e-9);
          },
        ),
        { numRuns: seasonRuns },
      );
    });

    it("the seal changes when any snapshot input changes, and not when key order changes", () => {
      const field = fc.constantFrom("nav" as const, "flow" as const, "invested" as const, "at" as const);
      fc.assert(
        fc.property(arbAgentSpec("me"), fc.nat(), field, (me, pick, name) => {
          const input = makeSeason([me]);
          const base = rowOf(input);
          const changed = roundTrip(input) as unknown as { snapshots: Record<string, unknown>[] };
          const target = changed.snapshots[pick % changed.snapshots.length]!;
          if (name === "at") target.at = "2026-11-21T23:00:00Z";
          else if (name === "invested") target.invested = (target.invested as number) === 0.25 ? 0.75 : 0.25;
          else target[name] = (target[name] as number) + 1;
          expect(rowOf(changed as unknown as SeasonInput).seal).to.not.equal(base.seal);

          // Same records, every object's keys reversed: same seals everywhere.
          const reversed = reverseKeys(roundTrip(input)) as SeasonInput;
          expect(rowOf(reversed).seal).to.equal(base.seal);
          expect(seal(rowOf(reversed).manifest)).to.equal(base.seal);
        }),
        { numRuns: seasonRuns },
      );
    });

    it("the seal changes when a call, decision, trade or creator input is added", () => {
      const input = makeSeason([
        { ...FIXED, creator: "c" },
        { id: "sib", creator: "c", navs: [1] },
      ]);
      const base = rowOf(input).seal;
      const decision = { ...input.decisions[0]!, action: "buy" };
      const trade = {
        agent: "me",
        at: "2026-11-01T01:00:00Z",
        asset: "X",
        side: "buy" as const,
        quantity: 1,
        price: 2,
      };
      const prior = {
        agent: "sib",
        season_id: "s0",
        performance: 55,
        seal: fakeSeal(9),
        sealed_at: "2026-10-01T00:00:00Z",
      };
      const call = {
        agent: "me",
        resolved_at: "2026-11-01T02:00:00Z",
        confidence: 0.7,
        outcome: "miss" as const,
      };
      const seals = [
        rowOf({ ...input, calls: [call] }).seal,
        rowOf({ ...input, decisions: [...input.decisions, decision] }).seal,
        rowOf({ ...input, trades: [trade] }).seal,
        rowOf({ ...input, prior_scores: [prior] }).seal,
        rowOf({ ...input, prior_scores: [{ ...prior, seal: fakeSeal(10) }] }).seal,
      ];
      expect(new Set([base, ...seals]).size).to.equal(6);
    });

    it("recomputing from each manifest's measured values reproduces every output", () => {
      fc.assert(
        fc.property(fc.array(arbAgentSpec("x"), { minLength: 1, maxLength: 3 }), (specs) => {
          const out = scoreSeasonJson(roundTrip(makeSeason(specs.map((s, i) => ({ ...s, id: `a${i}` })))));
          for (const row of out.rows) {
            const manifest = roundTrip(row.manifest);
            expect(seal(manifest)).to.equal(row.seal);
            const result = recomputeManifest(manifest);
            expect(result.checks.filter((c) => !c.ok)).to.deep.equal([]);
            expect(result.ok).to.equal(true);
          }
        }),
        { numRuns: seasonRuns },
      );
    });
  });

  it("SeasonScorer, fed one agent at a time in any order, gives the rows scoreSeason gives", () => {
    const input = makeSeason([FIXED, { id: "b", navs: [5, 6, 7, 8] }, { id: "c", navs: [1, 2] }]);
    const scorer = new SeasonScorer(input);
    const rows = ["c", "me", "b"].map((id) =>
      scorer.scoreAgent(id, {
        snapshots: input.snapshots.filter((r) => r.agent === id).reverse(),
        decisions: input.decisions.filter((r) => r.agent === id),
        trades: [],
        calls: [],
      }),
    );
    expect(scorer.result(rows)).to.deep.equal(scoreSeason(input));
    expect(() =>
      scorer.scoreAgent("ghost", { snapshots: [], decisions: [], trades: [], calls: [] }),
    ).to.throw('agent: unknown agent "ghost"');
  });

  it("property: records in any order, with rows outside the season mixed in, score as the in-season rows in time order", () => {
    // The reference: drop out-of-season rows, then a stable sort by time (equal times keep their order).
    const byTime = <T extends { at: string }>(rows: readonly T[]) =>
      rows.filter((r) => r.at <= AS_OF).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const late = "2026-11-29T00:00:00Z"; // after AS_OF, before the season's end
    fc.assert(
      fc.property(
        arbAgentSpec("me"),
        fc.array(fc.double({ noNaN: true }), { minLength: 40, maxLength: 40 }),
        (spec, keys) => {
          const input = makeSeason([spec]);
          const shuffle = <T>(rows: readonly T[]) =>
            rows
              .map((row, i) => ({ row, key: keys[i % keys.length]! }))
              .sort((a, b) => a.key - b.key)
              .map((x) => x.row);
          const snapshots = shuffle([...input.snapshots, { ...input.snapshots[0]!, at: late, nav: 7 }]);
          const trades = shuffle([
            ...input.trades,
            { agent: "me", at: late, asset: "X", side: "buy" as const, quantity: 1, price: 1 },
          ]);
          const scorer = new SeasonScorer(input);
          const records = { decisions: input.decisions, calls: input.calls };
          const mixed = scorer.scoreAgent("me", { ...records, snapshots, trades });
          const reference = scorer.scoreAgent("me", {
            ...records,
            snapshots: byTime(snapshots),
            trades: byTime(trades),
          });
          expect(mixed.seal).to.equal(reference.seal);
          expect(mixed.manifest.inputs.snapshot_count).to.equal(input.snapshots.length);
          expect(mixed.manifest.inputs.trade_count).to.equal(input.trades.length);
        },
      ),
      { numRuns: seasonRuns },
    );
  });

  it("property: rows interleaved across agents score as rows grouped by agent", () => {
    // Round robin over the agents: each agent's own rows keep their order, no two neighbours share an agent.
    const interleave = <T extends { agent: string }>(rows: readonly T[]) => {
      const queues = ["a", "b", "c"].map((id) => rows.filter((r) => r.agent === id));
      const out: T[] = [];
      while (queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0) out.push(q.shift()!);
      return out;
    };
    fc.assert(
      fc.property(fc.tuple(arbAgentSpec("a"), arbAgentSpec("b"), arbAgentSpec("c")), (specs) => {
        const grouped = makeSeason(specs);
        const mixed = {
          ...grouped,
          snapshots: interleave(grouped.snapshots),
          decisions: interleave(grouped.decisions),
          trades: interleave(grouped.trades),
          calls: interleave(grouped.calls),
        };
        expect(scoreSeason(mixed)).to.deep.equal(scoreSeason(grouped));
      }),
      { numRuns: Math.min(300, seasonRuns) },
    );
  });

  it("is deterministic: the same input gives the same seals", () => {
    const input = makeSeason([FIXED, { id: "b", navs: [5, 6, 7, 8] }]);
    expect(scoreSeason(roundTrip(input)).rows.map((r) => r.seal)).to.deep.equal(
      scoreSeason(input).rows.map((r) => r.seal),
    );
    expect(AS_OF).to.equal(input.as_of);
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  return value;
}
