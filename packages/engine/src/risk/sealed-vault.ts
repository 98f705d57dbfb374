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
 * Whether two JSON values (plain objects, arrays, strings, numbers, booleans, null) are equal, so
 * their canonical texts are: a key holding undefined, a NaN or anything else counts as different.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false;
    keys++;
  }
  for (const key in y) if (Object.hasOwn(y, key)) keys--;
  return keys === 0;
}

/**
 * The vault's readings and row (`readSummaryComponents`, `rowFromReadings`), each sealed once
 * from its canonical text. A reading equal to `prior`'s (the vault's last sealed) keeps that
 * one's text and seal: equal records have equal canonical text, so only what moved (most hours,
 * the worst-fall reading's point count and last time) is written and hashed again. The row is
 * made from the readings' values alone, so with the same six values it is `prior`'s row.
 */
export function sealVault(
  vault: VaultSummary,
  crowd: Crowd,
  sources: ComponentSources,
  prior?: SealedVault,
): SealedVault {
  const readings = readSummaryComponents(vault, crowd, sources).map((r, k) => {
    const before = prior?.readings[k];
    return before !== undefined && sameJson(before.r, r) ? before : sealedReading(r);
  });
  if (
    prior !== undefined &&
    prior.row.vault_id === vault.id &&
    readings.every((x, k) => Object.is(x.r.reading, prior.readings[k]?.r.reading))
  )
    return { readings, row: prior.row, body: prior.body, seal: prior.seal };
  const row = rowFromReadings(readings.map((x) => x.r));
  const body = canonicalJson(riskRowRecord(row));
  return { readings, row, body, seal: sealText(body) };
}
