import { createHash } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import { fakeSeal, SEASON_START } from "../fixture";
import { STYLES } from "../formula";
import { type SeasonAgentRecords, SeasonScorer, type UnrankedRow } from "../season";
import type { AgentInput, CallInput, DecisionInput, PriorScoreInput, TradeInput } from "../types";
import { advanceState, NotAdvanceableError } from "./advance";
import { manifestFrom } from "./manifest-from";
import { MerkleRootBuilder } from "../../merkle/root";
import { inputRoot, rowCanonicalJson } from "../input-roots";
import { type AgentSeasonState, emptyState, parseStateText, sealStateText, stateText } from "./state";

const HOUR = 3_600_000;
const START = Date.parse(SEASON_START);
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
/** A time in hour h of the season: (h − 1) hours plus `minutes` after the start (60 = the hour's end). */
const inHour = (h: number, minutes: number) => iso(START + (h - 1) * HOUR + minutes * 60_000);
const BEFORE_START = iso(START - HOUR);
// Whole-season properties run FC_RUNS times like the rest (1,000; 10,000 in test:deep).
const seasonRuns = Number(process.env.FC_RUNS ?? 1000);

/** One hour of one agent's new records, before times are given (they depend on the hour). */
interface HourSpec {
  readonly snapshot: { nav: number; flowShare: number; invested: number; sealed: boolean } | null;
  readonly decisions: readonly { minute: number; decider: DecisionInput["decider"]; early: boolean }[];
  readonly trades: readonly Omit<TradeInput, "agent" | "at" | "seal">[];
  readonly tradeMinutes: readonly number[];
  readonly calls: readonly {
    minute: number;
    confidence: number;
    outcome: CallInput["outcome"];
    early: boolean;
  }[];
}

// 0 ties with the previous hour's 60; 7, 13 and 41 minutes are inexact in hours; 67 and 95 are
// after the hour's clock: such a row is held until an hour whose clock it is under.
const minute = fc.constantFrom(0, 7, 13, 41, 60, 67, 95);
const rare = fc.constantFrom(false, false, false, false, true);
const arbHour: fc.Arbitrary<HourSpec> = fc.record({
  snapshot: fc.option(
    fc.record({
      nav: fc.integer({ min: 100, max: 10_000_000 }).map((c) => c / 100),
      flowShare: fc.integer({ min: -40, max: 40 }),
      invested: fc.double({ min: 0, max: 1, noNaN: true }),
      sealed: fc.boolean(),
    }),
    { freq: 4 },
  ),
  decisions: fc.array(
    fc.record({
      minute,
      decider: fc.constantFrom(
        "agent" as const,
        "agent" as const,
        "protective_exit" as const,
        "system_hold" as const,
      ),
      early: rare,
    }),
    { maxLength: 3 },
  ),
  trades: fc.array(
    fc.record({
      asset: fc.constantFrom("TSLA", "AAPL", "__proto__"),
      side: fc.constantFrom("buy" as const, "sell" as const),
      quantity: fc.integer({ min: 1, max: 50 }),
      price: fc.integer({ min: 100, max: 2_000 }).map((c) => c / 100),
    }),
    { maxLength: 3 },
  ),
  tradeMinutes: fc.array(minute, { minLength: 3, maxLength: 3 }),
  calls: fc.array(
    fc.record({
      minute,
      confidence: fc.integer({ min: 0, max: 100 }).map((p) => p / 100),
      outcome: fc.constantFrom("hit" as const, "miss" as const, "void" as const),
      early: rare,
    }),
    { maxLength: 3 },
  ),
});

/** Agent `agent`'s records of hour h; rows with an odd `n` carry a given seal (the engine's stored record). */
/** Agent `agent`'s records of hour h, each list in time order (stable), as a log written as they come. */
function hourRecords(agent: string, h: number, spec: HourSpec, n: { value: number }): SeasonAgentRecords {
  const rows = hourRows(agent, h, spec, n);
  const byTime = <T>(list: readonly T[], at: (row: T) => string) =>
    list
      .map((row, k) => ({ row, k, ms: Date.parse(at(row)) }))
      .sort((a, b) => a.ms - b.ms || a.k - b.k)
      .map((e) => e.row);
  return {
    snapshots: rows.snapshots,
    decisions: byTime(rows.decisions, (r) => r.at),
    trades: byTime(rows.trades, (r) => r.at),
    calls: byTime(rows.calls, (r) => r.resolved_at),
  };
}

function hourRows(agent: string, h: number, spec: HourSpec, n: { value: number }): SeasonAgentRecords {
  const sealed = () => ((n.value += 1) % 2 === 1 ? { seal: fakeSeal(n.value) } : {});
  const s = spec.snapshot;
  return {
    snapshots: s
      ? [
          {
            agent,
            at: inHour(h, 60),
            nav: s.nav,
            flow: Math.round(s.flowShare * s.nav) / 100,
            invested: s.invested,
            ...(s.sealed ? { seal: fakeSeal(1_000_000 + h) } : {}),
          },
        ]
      : [],
    decisions: spec.decisions.map((d) => ({
      agent,
      at: d.early ? BEFORE_START : inHour(h, d.minute),
      decider: d.decider,
      asset: "TSLA",
      action: "buy",
      ...sealed(),
    })),
    trades: spec.trades.map((t, i) => ({ agent, at: inHour(h, spec.tradeMinutes[i]!), ...t, ...sealed() })),
    calls: spec.calls.map((c) => ({
      agent,
      resolved_at: c.early ? BEFORE_START : inHour(h, c.minute),
      confidence: c.confidence,
      outcome: c.outcome,
      ...sealed(),
    })),
  };
}

function concat(batches: readonly SeasonAgentRecords[]): SeasonAgentRecords {
  return {
    snapshots: batches.flatMap((b) => b.snapshots),
    decisions: batches.flatMap((b) => b.decisions),
    trades: batches.flatMap((b) => b.trades),
    calls: batches.flatMap((b) => b.calls),
  };
}

const arbSeason = fc.record({
  agents: fc.array(
    fc.record({
      style: fc.constantFrom(...STYLES),
      active: fc.boolean(),
      creator: fc.constantFrom("c1", "c2"),
      prior: fc.option(fc.integer({ min: 0, max: 1000 }).map((p) => p / 10)),
      hours: fc.array(arbHour, { minLength: 14, maxLength: 14 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  hours: fc.integer({ min: 1, max: 14 }),
  /** The season closes after this many hours (past the last hour: it is still open). */
  closesAfter: fc.integer({ min: 1, max: 16 }),
  logSize: fc.option(fc.nat({ max: 1_000_000 })),
});

type SeasonSpec = typeof arbSeason extends fc.Arbitrary<infer S> ? S : never;

/**
 * Feeds a season hour by hour (held rows given again first) and checks each hour that the folded
 * state, stored as text and read back, gives the from-scratch scorer's manifest and seal.
 */
function checkSeason(season: SeasonSpec): AgentSeasonState[] {
  const agents: AgentInput[] = season.agents.map((a, k) => ({
    id: `a${k}`,
    creator: a.creator,
    style: a.style,
    active: a.active,
  }));
  const prior_scores: PriorScoreInput[] = season.agents.flatMap((a, k) =>
    a.prior === null
      ? []
      : [
          {
            agent: `a${k}`,
            season_id: "s0",
            performance: a.prior,
            seal: fakeSeal(500 + k),
            sealed_at: SEASON_START,
          },
        ],
  );
  const seasonInfo = { id: "s1", start: SEASON_START, end: iso(START + season.closesAfter * HOUR) };
  const seals = { value: 0 };
  const batches = agents.map((a, k) =>
    season.agents[k]!.hours.slice(0, season.hours).map((spec, i) => hourRecords(a.id, i + 1, spec, seals)),
  );
  let states: AgentSeasonState[] = agents.map((a) => emptyState(a.id, "s1"));
  // Rows of each list folded so far, per agent: the rest (held rows) are given again first.
  const folded = agents.map(() => ({ snapshots: 0, decisions: 0, trades: 0, calls: 0 }));
  for (let h = 1; h <= season.hours; h++) {
    const scorer = new SeasonScorer({
      season: seasonInfo,
      as_of: iso(START + h * HOUR),
      agents,
      prior_scores,
      inputs_log_size: season.logSize === null ? null : season.logSize + h,
    });
    states = states.map((state, k) => {
      const context = scorer.agentContext(agents[k]!.id);
      const log = concat(batches[k]!.slice(0, h));
      const from = folded[k]!;
      const pending = {
        snapshots: log.snapshots.slice(from.snapshots),
        decisions: log.decisions.slice(from.decisions),
        trades: log.trades.slice(from.trades),
        calls: log.calls.slice(from.calls),
      };
      const { state: advanced, taken } = advanceState(state, pending, context.bounds);
      for (const list of ["snapshots", "decisions", "trades", "calls"] as const) from[list] += taken[list];
      // What a store holds: the text; the state read back keeps every return's bits and seals the same.
      const stored = parseStateText(stateText(advanced));
      expect(stored.snapshots.returns).to.deep.equal(advanced.snapshots.returns);
      expect(stateText(stored)).to.equal(stateText(advanced));
      const expected: UnrankedRow = scorer.scoreAgent(agents[k]!.id, log);
      const actual = manifestFrom(stored, context);
      expect(actual).to.deep.equal(expected);
      expect(actual.seal).to.equal(expected.seal);
      return stored;
    });
  }
  return states;
}

const noRecords: SeasonAgentRecords = { snapshots: [], decisions: [], trades: [], calls: [] };

/** An hour with the given snapshot (nav, flow as % of nav, invested) and lists; nothing else. */
const hour = (
  snapshot: [number, number, number] | null,
  rest: Partial<Omit<HourSpec, "snapshot">> = {},
  sealed = false,
): HourSpec => ({
  snapshot: snapshot && { nav: snapshot[0], flowShare: snapshot[1], invested: snapshot[2], sealed },
  decisions: [],
  trades: [],
  tradeMinutes: [],
  calls: [],
  ...rest,
});
const own = [{ minute: 7, decider: "agent" as const, early: false }];
const call = (confidence: number, outcome: CallInput["outcome"], minute = 13) => ({
  minute,
  confidence,
  outcome,
  early: false,
});
const trade = (asset: string, side: "buy" | "sell", quantity: number, price: number) => ({
  asset,
  side,
  quantity,
  price,
});
/** A season of one spec per agent, fed for as many hours as the longest has, open throughout. */
const seasonOf = (...agents: HourSpec[][]): SeasonSpec => ({
  agents: agents.map((hours, k) => ({
    style: "momentum" as const,
    active: true,
    creator: k % 2 ? ("c2" as const) : ("c1" as const),
    prior: null,
    hours,
  })),
  hours: Math.max(...agents.map((a) => a.length)),
  closesAfter: 100,
  logSize: 5,
});

describe("incremental augur-score/v1", () => {
  it("property: seasons fed hour by hour give the from-scratch scorer's manifest and seal every hour", () => {
    fc.assert(
      fc.property(arbSeason, (season) => {
        checkSeason(season);
      }),
      { numRuns: seasonRuns },
    );
  });

  it("a worked season: lopsided returns, flows, held trades, equal prices, ties, 4 then 5 then 6 resolved calls", () => {
    const [rich, quiet, open] = checkSeason(
      seasonOf(
        [
          hour([100, 0, 0.5], {
            decisions: own,
            trades: [trade("TSLA", "buy", 10, 10)],
            tradeMinutes: [7],
            calls: [call(0.8, "hit")],
          }),
          hour([110, 0, 0.25], {
            decisions: own,
            // Two trades at the same minute: the scorer keeps the order given.
            trades: [trade("TSLA", "buy", 5, 11), trade("AAPL", "sell", 2, 20)],
            tradeMinutes: [13, 13],
            calls: [call(0.3, "miss")],
          }),
          hour([121, 0, 0], {
            decisions: own,
            // The same price as TSLA's last trade: no move to align with; closes both buys.
            trades: [trade("TSLA", "sell", 3, 11)],
            tradeMinutes: [41],
            calls: [call(0.5, "void"), call(0.6, "hit")],
          }),
          hour([108.9, 10, 0.75], {
            decisions: own,
            // TSLA at minute 67 is after this hour's clock: held until hour 5.
            trades: [trade("AAPL", "buy", 1, 19), trade("TSLA", "buy", 1, 12)],
            tradeMinutes: [41, 67],
            calls: [call(0.9, "hit")],
          }),
          hour([112, -5, 1], { decisions: own, calls: [call(0.2, "miss")] }, true),
          hour([115, 0, 0.3], {
            trades: [trade("TSLA", "sell", 2, 12.5)],
            tradeMinutes: [95],
            calls: [call(0.7, "hit", 95)],
          }),
          hour([111, 0, 0.6]),
          hour([120, 0, 0.1]),
        ],
        // Eligible without trades or calls: no DNA from trades, no Brier.
        [1, 2, 3, 4, 5, 6].map((i) => hour([100 + i, 0, 0.2], { decisions: own })),
        // Only buys: every trade still open, so no holding time.
        [1, 2, 3, 4, 5, 6].map((i) =>
          hour([100 - i, 0, 0.9], {
            decisions: own,
            trades: [trade("TSLA", "buy", 1, 10 + i)],
            tradeMinutes: [30],
          }),
        ),
      ),
    );
    expect(rich!.calls).to.include({ resolved: 6 });
    expect(rich!.trades).to.deep.include({
      last_price: [
        ["AAPL", 19],
        ["TSLA", 12.5],
      ],
      // Minutes from the start: 7, 73, 73, 161, 221, 247 and 395; each hold ends at the asset's next opposite trade.
      holds: [
        (161 - 7) / 60,
        (161 - 73) / 60,
        (221 - 73) / 60,
        (247 - 161) / 60,
        null,
        (395 - 247) / 60,
        null,
      ],
      open: [
        ["AAPL", "buy", [[4, START + 221 * 60_000]]],
        ["TSLA", "sell", [[6, START + 395 * 60_000]]],
      ],
      // TSLA up on a buy (+1), level on a sell (not counted), AAPL down on a buy (−1), TSLA up on a buy (+1), up on a sell (−1).
      alignment_sum: 0,
      alignment_count: 4,
    });
    expect(rich!.snapshots).to.include({
      first_ms: START + HOUR,
      last_ms: START + 8 * HOUR,
      last_nav: 120,
    });
    expect(rich!.snapshots.invested_sum).to.be.closeTo(3.5, 1e-12);
    expect(quiet!.trades.holds).to.deep.equal([]);
    expect(open!.trades.holds).to.deep.equal([null, null, null, null, null, null]);
  });

  it("three snapshots at the clock itself: 0 days competing, no per-day rates", () => {
    const at = iso(START + HOUR);
    const scorer = new SeasonScorer({
      season: { id: "s1", start: SEASON_START, end: iso(START + 100 * HOUR) },
      as_of: at,
      agents: [{ id: "a", creator: "c", style: "momentum", active: true }],
      prior_scores: [],
    });
    const records: SeasonAgentRecords = {
      snapshots: [100, 101, 99].map((nav) => ({ agent: "a", at, nav, flow: 0, invested: 0.5 })),
      decisions: [1, 2, 3, 4, 5].map(() => ({
        agent: "a",
        at,
        decider: "agent" as const,
        asset: "T",
        action: "buy",
      })),
      trades: [{ agent: "a", at, asset: "T", side: "buy", quantity: 1, price: 5 }],
      calls: [],
    };
    const context = scorer.agentContext("a");
    const actual = manifestFrom(advanceState(emptyState("a", "s1"), records, context.bounds).state, context);
    expect(actual).to.deep.equal(scorer.scoreAgent("a", records));
    expect(actual.manifest.measured).to.deep.include({ days: 0 });
    expect(actual.manifest.measured!.dna).to.include({ trades_per_day: null, decisions_per_day: null });
  });

  it("an empty batch gives back each fold as it is; a second advance leaves the first state as it was", () => {
    const bounds = { startMs: START, clockMs: START + 5 * HOUR, endMs: START + 10 * HOUR };
    const first = advanceState(
      emptyState("a", "s1"),
      hourRecords("a", 1, hour([100, 0, 0.5], { trades: [trade("T", "buy", 1, 5)], tradeMinutes: [7] }), {
        value: 0,
      }),
      bounds,
    ).state;
    const text = stateText(first);
    const next = advanceState(first, { snapshots: [], decisions: [], trades: [], calls: [] }, bounds).state;
    for (const list of ["snapshots", "decisions", "trades", "calls"] as const)
      expect(next[list], list).to.equal(first[list]);
    const second = advanceState(
      first,
      hourRecords("a", 2, hour([110, 0, 0.5], { trades: [trade("T", "sell", 1, 6)], tradeMinutes: [7] }), {
        value: 0,
      }),
      bounds,
    ).state;
    expect(stateText(first)).to.equal(text);
    expect(second.snapshots.returns).to.have.length(1);
    expect(second.trades.holds).to.deep.equal([1, null]);
  });

  it("a batch of 100 trades at one time, each in its own asset: folded in the order given, assets sorted", () => {
    const bounds = { startMs: START, clockMs: START + HOUR, endMs: START + 10 * HOUR };
    // Asset names in a scrambled order (37 is prime to 100), sides alternating.
    const assets = Array.from({ length: 100 }, (_, i) => `A${String((i * 37) % 100).padStart(2, "0")}`);
    const trades: TradeInput[] = assets.map((asset, i) => ({
      agent: "a",
      at: inHour(1, 30),
      asset,
      side: i % 2 ? "sell" : "buy",
      quantity: i + 1,
      price: 1,
    }));
    const { state } = advanceState(emptyState("a", "s1"), { ...noRecords, trades }, bounds);
    expect(MerkleRootBuilder.fromFrontier(state.trades.frontier).root()).to.equal(
      inputRoot(trades, rowCanonicalJson.trade, "trades"),
    );
    const sorted = [...assets].sort();
    expect(state.trades.last_price.map(([asset]) => asset)).to.deep.equal(sorted);
    expect(state.trades.open.map(([asset]) => asset)).to.deep.equal(sorted);
  });

  it("a fold stored as v1 (returns as JSON numbers) reads back as the state stored as v2 (their bits)", () => {
    const bounds = { startMs: START, clockMs: START + 5 * HOUR, endMs: START + 10 * HOUR };
    const n = { value: 0 };
    let state = emptyState("a", "s1");
    for (const [h, nav] of [
      [1, 100],
      [2, 103.7],
      [3, 99.1],
      [4, 101.3],
    ] as const)
      state = advanceState(state, hourRecords("a", h, hour([nav, 0, 0.5]), n), bounds).state;
    expect(state.snapshots.returns).to.have.length(3);
    // Exactly what the v1 code stored: the state's JSON, returns as decimals.
    const v1 = JSON.stringify({ ...state, version: "augur-incremental/v1" });
    const v2 = stateText(state);
    expect((JSON.parse(v2) as { snapshots: { returns: string } }).snapshots.returns).to.have.length(4 * 8);
    expect(v2.length).to.be.below(v1.length);
    const fromV1 = parseStateText(v1);
    expect(fromV1).to.deep.equal(parseStateText(v2));
    expect(fromV1).to.deep.equal(state);
    expect(stateText(fromV1)).to.equal(v2);
    expect(() => parseStateText(JSON.stringify({ ...state, version: "augur-incremental/v0" }))).to.throw(
      RangeError,
      /not a stored fold state/,
    );
    expect(() => parseStateText(v1.replace('"augur-incremental/v1"', '"augur-incremental/v2"'))).to.throw(
      RangeError,
    );
  });

  it("a state's seal is the sha256 of its stored text", () => {
    expect(sealStateText("{}")).to.equal(
      "0x44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
    );
    const text = stateText(emptyState("a", "s1"));
    expect(sealStateText(text)).to.equal(`0x${createHash("sha256").update(text).digest("hex")}`);
  });

  it("advancing leaves the state it was given as it was", () => {
    const scorer = new SeasonScorer({
      season: { id: "s1", start: SEASON_START, end: iso(START + 100 * HOUR) },
      as_of: iso(START + HOUR),
      agents: [{ id: "a", creator: "c", style: "momentum", active: true }],
      prior_scores: [],
    });
    const empty = emptyState("a", "s1");
    const before = JSON.stringify(empty);
    const spec: HourSpec = {
      snapshot: { nav: 100, flowShare: 0, invested: 0.5, sealed: false },
      decisions: [{ minute: 5, decider: "agent", early: false }],
      trades: [{ asset: "TSLA", side: "buy", quantity: 1, price: 10 }],
      tradeMinutes: [10],
      calls: [{ minute: 5, confidence: 0.6, outcome: "hit", early: false }],
    };
    advanceState(empty, hourRecords("a", 1, spec, { value: 0 }), scorer.agentContext("a").bounds);
    expect(JSON.stringify(empty)).to.equal(before);
  });

  describe("refuses a batch it cannot append (the caller rescores from scratch)", () => {
    const bounds = { startMs: START, clockMs: START + 2 * HOUR, endMs: START + 10 * HOUR };
    const trade = (at: string): TradeInput => ({
      agent: "a",
      at,
      asset: "TSLA",
      side: "buy",
      quantity: 1,
      price: 1,
    });
    const none = { snapshots: [], decisions: [], trades: [], calls: [] };

    it("a trade earlier than the last one folded", () => {
      const { state } = advanceState(
        emptyState("a", "s1"),
        { ...none, trades: [trade(inHour(2, 30))] },
        bounds,
      );
      expect(() => advanceState(state, { ...none, trades: [trade(inHour(2, 15))] }, bounds))
        .to.throw(NotAdvanceableError, "trades: a row is earlier than the last one folded")
        .with.property("code", "NOT_ADVANCEABLE");
      // A tie with the last one follows it, as the scorer's stable sort puts it.
      expect(
        advanceState(state, { ...none, trades: [trade(inHour(2, 30))] }, bounds).state.trades.frontier.size,
      ).to.equal(2);
    });

    it("a row that counts now after one held for a later hour (the scorer would put it first)", () => {
      const call = (at: string): CallInput => ({
        agent: "a",
        resolved_at: at,
        confidence: 0.5,
        outcome: "hit",
      });
      // Held: a row inside the season after the clock waits, with every row after it.
      const held = advanceState(
        emptyState("a", "s1"),
        { ...none, calls: [call(inHour(1, 5)), call(inHour(3, 1)), call(inHour(4, 0))] },
        bounds,
      );
      expect([held.taken.calls, held.state.calls.frontier.size]).to.deep.equal([1, 1]);
      expect(() =>
        advanceState(
          emptyState("a", "s1"),
          { ...none, calls: [call(inHour(3, 1)), call(inHour(2, 0))] },
          bounds,
        ),
      ).to.throw(NotAdvanceableError, "calls: a row after one held for a later hour counts now");
      // After the season's end it never counts: skipped, as the scorer skips it, and not held.
      const late = advanceState(
        emptyState("a", "s1"),
        { ...none, calls: [call(iso(START + 11 * HOUR))] },
        bounds,
      );
      expect([late.taken.calls, late.state.calls.frontier.size]).to.deep.equal([1, 0]);
    });

    /** One row of `list` at `at` (snapshots, decisions, trades or calls), with the given seal if any. */
    const rowOf = (list: keyof typeof none, at: string, seal?: string): SeasonAgentRecords => {
      const s = seal === undefined ? {} : { seal: seal as `0x${string}` };
      const rows = {
        snapshots: [{ agent: "a", at, nav: 100, flow: 0, invested: 0.5, ...s }],
        decisions: [{ agent: "a", at, decider: "agent" as const, asset: "T", action: "buy", ...s }],
        trades: [{ ...trade(at), ...s }],
        calls: [{ agent: "a", resolved_at: at, confidence: 0.5, outcome: "hit" as const, ...s }],
      };
      return { ...none, [list]: rows[list] };
    };
    const lists = ["snapshots", "decisions", "trades", "calls"] as const;
    const both = (a: SeasonAgentRecords, b: SeasonAgentRecords): SeasonAgentRecords => ({
      snapshots: [...a.snapshots, ...b.snapshots],
      decisions: [...a.decisions, ...b.decisions],
      trades: [...a.trades, ...b.trades],
      calls: [...a.calls, ...b.calls],
    });

    it("every list: a row at the clock after a held one, named with its time and place", () => {
      for (const list of lists) {
        const records = both(rowOf(list, inHour(3, 1)), rowOf(list, inHour(2, 60)));
        expect(() => advanceState(emptyState("a", "s1"), records, bounds), list)
          .to.throw(NotAdvanceableError, `${list}: a row after one held for a later hour counts now`)
          .with.property("details")
          .that.deep.equals({ list, ms: START + 2 * HOUR, held: 1 });
      }
    });

    it("snapshots and trades earlier than the last one folded, named with both times", () => {
      for (const list of ["snapshots", "trades"] as const) {
        const { state } = advanceState(emptyState("a", "s1"), rowOf(list, inHour(2, 30)), bounds);
        expect(() => advanceState(state, rowOf(list, inHour(2, 15)), bounds), list)
          .to.throw(NotAdvanceableError, `${list}: a row is earlier than the last one folded`)
          .that.deep.includes({
            name: "NotAdvanceableError",
            details: { list, ms: START + HOUR + 15 * 60_000, after: START + HOUR + 30 * 60_000 },
          });
      }
    });

    it("every list: a malformed time or given seal, named by its list", () => {
      for (const list of lists) {
        expect(() => advanceState(emptyState("a", "s1"), rowOf(list, "yesterday"), bounds)).to.throw(
          `${list}.at: must be an ISO-8601 UTC time`,
        );
        expect(() => advanceState(emptyState("a", "s1"), rowOf(list, inHour(1, 0), "0x12"), bounds)).to.throw(
          `${list} (seal)[0]: is not 0x followed by 64 hex digits`,
        );
      }
    });

    it("a first batch has nothing to follow, even in a season before 1970", () => {
      const early = { startMs: -10 * HOUR, clockMs: -HOUR, endMs: 0 };
      const { state } = advanceState(emptyState("a", "s1"), rowOf("trades", iso(-2 * HOUR)), early);
      expect(state.trades).to.include({ last_ms: -2 * HOUR });
    });

    it("a malformed given seal, named by its list and place", () => {
      const bad = { ...trade(inHour(1, 0)), seal: "0x12" as const };
      expect(() => advanceState(emptyState("a", "s1"), { ...none, trades: [bad] }, bounds)).to.throw(
        /trades \(seal\)\[0\]: is not 0x followed by 64 hex digits/,
      );
    });
  });

  it("a state holding a number JSON cannot carry is refused; sums beyond 2^53 are carried exactly", () => {
    const state = emptyState("a", "s1");
    expect(() => stateText({ ...state, calls: { ...state.calls, brier_sum: NaN } })).to.throw(
      /brier_sum is NaN/,
    );
    const big = { ...state, trades: { ...state.trades, buy_notional: 2 ** 70 + 2 ** 20 } };
    expect((JSON.parse(stateText(big)) as AgentSeasonState).trades.buy_notional).to.equal(2 ** 70 + 2 ** 20);
  });
});
