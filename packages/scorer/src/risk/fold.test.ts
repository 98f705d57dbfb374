import { expect } from "chai";
import fc from "fast-check";
import { InvalidInputError } from "../errors";
import { deriveVaultInput } from "./derive";
import {
  advanceRiskFold,
  emptyRiskFold,
  parseRiskFoldText,
  riskFoldText,
  riskFoldVault,
  type RiskFold,
  type RiskSnapshot,
  type RiskTrade,
} from "./fold";
import { readSummaryComponents, sealComponentReading, summariseVault, type VaultSummary } from "./readings";
import { buildCrowd } from "./shared-exposure";

const HOUR = 3600;
const T0 = 1_767_225_600 - 20 * HOUR; // the season crosses a UTC midnight
// Whole-season properties run FC_RUNS times like the rest (1,000; 10,000 in test:deep).
const runs = Number(process.env.FC_RUNS ?? 1000);

/** Where in (or around) its hour a trade is stamped: 60 ties the next hour's 0, > 60 is after the hour, < 0 before it. */
const minute = fc.constantFrom(0, 7, 41, 60, 60, 75, 130, -90);
const arbSnapshot = fc.record({
  // at most one an hour, at minutes no other hour's snapshot can repeat (−44 is earlier than the last one folded)
  minute: fc.constantFrom(5, 30, 58, 77, -44),
  nav: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100),
  ),
  flow: fc.integer({ min: -40, max: 40 }).map((c) => c * 13.7),
  invested: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1.6, noNaN: true })),
});
const arbTrade = fc.record({
  minute,
  asset: fc.constantFrom("TSLA", "AAPL", "__proto__"),
  side: fc.constantFrom("buy" as const, "sell" as const),
  quantity: fc.oneof(
    fc.constant(0.1),
    fc.integer({ min: 1, max: 5_000 }).map((c) => c / 100),
  ),
  price: fc.integer({ min: 100, max: 200_000 }).map((c) => c / 100),
});
/** One agent's records arriving in one hour, in log order. */
const arbHour = fc.record({
  snapshots: fc.array(arbSnapshot, { maxLength: 1 }),
  trades: fc.array(arbTrade, { maxLength: 3 }),
});
/** A season of 2–3 agents, each with its hours of arrivals. */
const arbSeason = fc.array(fc.array(arbHour, { minLength: 1, maxLength: 10 }), {
  minLength: 2,
  maxLength: 3,
});

const at = (hour: number, m: number) => T0 + hour * HOUR + m * 60;

/** One agent's path: its fold (or undefined once it could not fold) and every record arrived, log order. */
interface AgentPath {
  fold: RiskFold | undefined;
  snapshots: RiskSnapshot[];
  trades: RiskTrade[];
}

/** The agent's vault at `asOf` from its fold, advancing it by its new records or rebuilding it from all. */
function foldedVault(path: AgentPath, id: string, fresh: AgentPath, asOf: number): VaultSummary | undefined {
  path.fold =
    (path.fold && advanceRiskFold(path.fold, fresh.snapshots, fresh.trades, asOf)) ??
    advanceRiskFold(emptyRiskFold(), path.snapshots, path.trades, asOf);
  if (path.fold === undefined) return undefined;
  // Half the hours, the fold goes through its stored text, as after a restart.
  if (path.snapshots.length % 2 === 0) {
    try {
      path.fold = parseRiskFoldText(riskFoldText(path.fold));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return riskFoldVault(path.fold, id);
}

const readingSeals = (vaults: readonly VaultSummary[]) => {
  const crowd = buildCrowd(vaults);
  return vaults.map((v) => readSummaryComponents(v, crowd).map(sealComponentReading));
};

describe("risk folds: each vault's readings carried hour by hour", () => {
  it("seal, hour after hour, exactly the readings of the vault derived from the whole book", () => {
    let folded = 0;
    fc.assert(
      fc.property(arbSeason, (season) => {
        const paths: AgentPath[] = season.map(() => ({ fold: undefined, snapshots: [], trades: [] }));
        const hours = Math.max(...season.map((h) => h.length));
        for (let h = 1; h <= hours + 2; h++) {
          const asOf = T0 + h * HOUR;
          const fromFolds: VaultSummary[] = [];
          const fromBooks: VaultSummary[] = [];
          let refused = false;
          season.forEach((agentHours, a) => {
            const arrived = agentHours[h - 1] ?? { snapshots: [], trades: [] };
            const fresh: AgentPath = {
              fold: undefined,
              snapshots: arrived.snapshots.map(({ minute: m, ...s }) => ({ ...s, at: at(h - 1, m) })),
              trades: arrived.trades.map(({ minute: m, ...t }) => ({ ...t, at: at(h - 1, m) })),
            };
            const path = paths[a]!;
            path.snapshots.push(...fresh.snapshots);
            path.trades.push(...fresh.trades);
            const id = `agent-${a}`;
            const records = { snapshots: path.snapshots, trades: path.trades };
            const vault = foldedVault(path, id, fresh, asOf);
            if (vault === undefined) {
              // Only what the whole-book path refuses too (a repeated snapshot time) is not folded.
              expect(() => deriveVaultInput(records, { id, asOf })).to.throw(InvalidInputError);
              refused = true;
              return;
            }
            folded += 1;
            fromFolds.push(vault);
            fromBooks.push(summariseVault(deriveVaultInput(records, { id, asOf })));
          });
          if (refused) return;
          // The readings are a function of the vaults and their crowd: equal vaults read the same;
          // the last hour's readings are sealed to show it.
          expect(fromFolds).to.deep.equal(fromBooks);
          if (h === hours + 2) expect(readingSeals(fromFolds)).to.deep.equal(readingSeals(fromBooks));
        }
      }),
      { numRuns: runs },
    );
    expect(folded).to.be.greaterThan(runs);
  });

  it("refuses to fold a record earlier than one folded, and an earlier as-of", () => {
    const snapshot = (t: number): RiskSnapshot => ({ at: T0 + t, nav: 100, flow: 0, invested: 0.5 });
    const fold = advanceRiskFold(emptyRiskFold(), [snapshot(10), snapshot(20)], [], T0 + HOUR)!;
    expect(fold.points).to.equal(2);
    expect(advanceRiskFold(fold, [snapshot(15)], [], T0 + 2 * HOUR)).to.equal(undefined);
    expect(advanceRiskFold(fold, [snapshot(20)], [], T0 + 2 * HOUR)).to.equal(undefined);
    const twice = { snapshots: [snapshot(10), snapshot(20), snapshot(20)], trades: [] };
    expect(() => deriveVaultInput(twice, { id: "a", asOf: T0 + HOUR })).to.throw(InvalidInputError);
    expect(advanceRiskFold(fold, [], [], T0)).to.equal(undefined);
    expect(advanceRiskFold(fold, [{ ...snapshot(30), nav: -1 }], [], T0 + 2 * HOUR)).to.equal(undefined);
    const later = advanceRiskFold(fold, [snapshot(2 * HOUR)], [], T0 + HOUR)!;
    expect([later.points, later.heldSnapshots.length]).to.deep.equal([2, 1]);
  });

  it("is not stored when JSON would not give it back bit for bit", () => {
    const fold = { ...emptyRiskFold(), asOf: T0, index: -0 };
    expect(() => riskFoldText(fold)).to.throw(RangeError);
    expect(() => riskFoldText(emptyRiskFold())).to.throw(RangeError); // asOf −∞
  });
});
