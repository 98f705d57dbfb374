import { expect } from "chai";
import fc from "fast-check";
import {
  buildCrowd,
  canonicalJson,
  componentReadingRecord,
  readSummaryComponents,
  riskRowRecord,
  rowFromReadings,
  seal,
  summariseVault,
  VAULT_FIELDS,
  type VaultInput,
} from "@augur/scorer";
import { vault } from "@augur/scorer/src/risk/arbitraries.test-util";
import { sealVault } from "./sealed-vault";

/** The fields that may move between hours (days traded moves with days observed, to stay below it). */
const FIELDS = VAULT_FIELDS.filter((f) => f !== "id" && f !== "days_traded");

/** The vault an hour later: some of its fields as they were, the others from `other`. */
const hourAfter = fc
  .tuple(vault("v0"), vault("v0"), fc.subarray(FIELDS), vault("v1"))
  .map(([before, other, moved, neighbour]) => {
    const after: Record<string, unknown> = { ...before };
    for (const field of moved) after[field] = other[field];
    if (moved.includes("days_observed")) after.days_traded = other.days_traded;
    return { before, after: after as unknown as VaultInput, neighbour };
  });

describe("risk vaults sealed once, and only what moved", () => {
  it("seals every reading and row exactly as sealing each from scratch does, with or without the vault's last sealed", () => {
    fc.assert(
      fc.property(hourAfter, fc.boolean(), ({ before, after, neighbour }, sameCrowd) => {
        const crowdBefore = buildCrowd([summariseVault(before), summariseVault(neighbour)]);
        const summary = summariseVault(after);
        const crowd = sameCrowd ? crowdBefore : buildCrowd([summary, summariseVault(neighbour)]);
        const prior = sealVault(summariseVault(before), crowdBefore, {});
        for (const sealed of [sealVault(summary, crowd, {}), sealVault(summary, crowd, {}, prior)]) {
          const readings = readSummaryComponents(summary, crowd, {});
          const row = rowFromReadings(readings);
          expect(sealed.readings.map((x) => [x.r, x.body, x.seal])).to.deep.equal(
            readings.map((r) => [
              r,
              canonicalJson(componentReadingRecord(r)),
              seal(componentReadingRecord(r)),
            ]),
          );
          expect([sealed.row, sealed.body, sealed.seal]).to.deep.equal([
            row,
            canonicalJson(riskRowRecord(row)),
            seal(riskRowRecord(row)),
          ]);
        }
      }),
      // Pure and cheap: a fifth of the global runs in `npm test` (200), 2,000 in `test:deep`.
      { numRuns: Math.max(100, Math.floor(Number(process.env.FC_RUNS ?? 1000) / 5)) },
    );
  });

  it("keeps the last sealed text of a reading that did not move, and the row when no reading's value moved", () => {
    const input = fc.sample(vault("v0"), { numRuns: 1, seed: 22 })[0]!;
    const before = {
      ...input,
      holder_index: [
        { at: 0, index: 1 },
        { at: 3600, index: 2 },
      ],
    };
    // One more point, higher: the worst-fall reading's inputs move, its value (no fall) does not.
    const after = {
      ...before,
      tvl_usd: before.tvl_usd + 1,
      holder_index: [...before.holder_index, { at: 7200, index: 3 }],
    };
    const crowd = buildCrowd([summariseVault(before)]);
    const prior = sealVault(summariseVault(before), crowd, {});
    const next = sealVault(summariseVault(after), crowd, {}, prior);
    expect(next.readings.map((x, k) => x === prior.readings[k])).to.deep.equal([
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(next.readings[0]!.seal).to.not.equal(prior.readings[0]!.seal);
    expect([next.row, next.body, next.seal]).to.deep.equal([prior.row, prior.body, prior.seal]);
    expect(next.row).to.equal(prior.row);
  });
});
