import { isDeepStrictEqual } from "node:util";
import {
  canonicalJson,
  componentReadingRecord,
  readSummaryComponents,
  riskRowRecord,
  rowFromReadings,
  sealText,
  type ComponentReading,
  type ComponentSources,
  type Crowd,
  type Hex32,
  type RiskRow,
  type VaultSummary,
} from "@augur/scorer";

/** One component reading as sealed: the canonical text of its record and that text's seal. */
export interface SealedReading {
  readonly r: ComponentReading;
  readonly body: string;
  readonly seal: Hex32;
}

/** One vault's six readings (component order) and its row, sealed. */
export interface SealedVault {
  readonly readings: readonly SealedReading[];
  readonly row: RiskRow;
  readonly body: string;
  readonly seal: Hex32;
}

function sealedReading(r: ComponentReading): SealedReading {
  const body = canonicalJson(componentReadingRecord(r));
  return { r, body, seal: sealText(body) };
}

/**
 * The vault's readings and row (`readSummaryComponents`, `rowFromReadings`), each sealed once
 * from its canonical text. A reading or row deep-equal to `prior`'s (the vault's last sealed)
 * keeps that one's text and seal: equal records have equal canonical text, so only what moved
 * (most hours, the worst-fall reading's point count and last time) is written and hashed again.
 */
export function sealVault(
  vault: VaultSummary,
  crowd: Crowd,
  sources: ComponentSources,
  prior?: SealedVault,
): SealedVault {
  const readings = readSummaryComponents(vault, crowd, sources).map((r, k) => {
    const before = prior?.readings[k];
    return before !== undefined && isDeepStrictEqual(before.r, r) ? before : sealedReading(r);
  });
  const row = rowFromReadings(readings.map((x) => x.r));
  if (prior !== undefined && isDeepStrictEqual(prior.row, row))
    return { readings, row: prior.row, body: prior.body, seal: prior.seal };
  const body = canonicalJson(riskRowRecord(row));
  return { readings, row, body, seal: sealText(body) };
}
