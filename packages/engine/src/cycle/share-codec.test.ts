import { expect } from "chai";
import fc from "fast-check";
import { validateSeasonInput, type SeasonInput } from "@augur/scorer";
import { scoreSeasonAgents } from "@augur/scorer/src/augur/season";
import { fakeSeal, makeSeason } from "@augur/scorer/src/augur/fixture";
import { arbAgentSpec } from "@augur/scorer/src/augur/fixture-arb";
import { SeasonIndex } from "./season-index";
import { decodeAgent, encodeShare, ShareEncoder, ShareScorer } from "./share-codec";

/**
 * A season of up to five agents whose rows may come interleaved (an agent's rows in several runs),
 * with decimals given as strings and stored seals on some rows: every form a validated row takes.
 */
const arbSeason: fc.Arbitrary<SeasonInput> = fc
  .tuple(
    fc.array(arbAgentSpec("x"), { minLength: 1, maxLength: 5 }),
    fc.boolean(),
    fc.infiniteStream(fc.tuple(fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 1e6 }))),
  )
  .map(([specs, interleave, coins]) => {
    const season = makeSeason(specs.map((spec, k) => ({ ...spec, id: `agent-${k}` })));
    const vary = (row: object) => {
      const [asText, sealed, n] = coins.next().value;
      const out: Record<string, unknown> = { ...row };
      for (const field of ["nav", "flow", "quantity", "price"])
        if (asText && typeof out[field] === "number") out[field] = String(out[field]);
      if (sealed) out.seal = fakeSeal(n);
      return out;
    };
    const order = <T>(rows: readonly T[]) => (interleave ? [...rows].reverse() : [...rows]);
    return validateSeasonInput({
      ...season,
      snapshots: order(season.snapshots.map(vary)),
      decisions: order(season.decisions.map(vary)),
      trades: order(season.trades.map(vary)),
      calls: order(season.calls.map(vary)),
    });
  });

/** The share of the agents `pick` names, as the worker is given it: a clone, its buffers moved. */
function movedShare(season: SeasonInput, pick: readonly boolean[]) {
  const index = new SeasonIndex(season);
  const agents = season.agents.map((_, k) => k).filter((k) => pick[k]);
  const { share, transfer } = encodeShare(index, agents);
  return { index, agents, share: structuredClone(share, { transfer }) };
}
const arbPick = fc.array(fc.boolean(), { minLength: 5, maxLength: 5 });
/** A share of the global run count (1,000 in `npm test`): each run builds and validates a season. */
const runs = (share: number) =>
  Math.max(5, Math.floor(((fc.readConfigureGlobal().numRuns ?? 100) * share) / 100));

describe("a season's share as columns (cycle/share-codec.ts)", () => {
  it("gives back each agent's rows as the season holds them, in the season's order", () => {
    fc.assert(
      fc.property(arbSeason, arbPick, (season, pick) => {
        const { index, agents, share } = movedShare(season, pick);
        expect(share.agents).to.deep.equal(agents.map((k) => season.agents[k]!.id));
        agents.forEach((k, j) =>
          expect(decodeAgent(share, j, share.strings)).to.deep.equal(index.records(k)),
        );
      }),
      // The codec's branches (number or string, seal or none, one run or several) show in a few
      // dozen seasons.
      { numRuns: runs(5) },
    );
  });

  it("sends each string once across a worker's batches, each batch read back with the table so far", () => {
    fc.assert(
      fc.property(arbSeason, (season) => {
        const index = new SeasonIndex(season);
        const encoder = new ShareEncoder(index);
        const table: string[] = [];
        season.agents.forEach((_, k) => {
          const { share, transfer } = encoder.encode([k]);
          const moved = structuredClone(share, { transfer });
          for (const value of moved.strings) {
            expect(table).not.to.include(value);
            table.push(value);
          }
          expect(decodeAgent(moved, 0, table)).to.deep.equal(index.records(k));
        });
      }),
      { numRuns: runs(2) },
    );
  });

  it("scores a share to the rows the whole season gives its agents", () => {
    // Scoring hashes every row: a few runs (the rows themselves are the property above).
    fc.assert(
      fc.property(arbSeason, arbPick, (season, pick) => {
        const { agents, share } = movedShare(season, pick);
        const ids = new Set(agents.map((k) => season.agents[k]!.id));
        expect(JSON.stringify(new ShareScorer(season).score(share))).to.equal(
          JSON.stringify(scoreSeasonAgents(season, ids)),
        );
      }),
      { numRuns: runs(1) },
    );
  });
});
