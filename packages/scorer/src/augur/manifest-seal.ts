import type { Hex32 } from "../hex";
import { canonicalJson, sealText } from "../seal";
import type { ScoreManifest } from "./manifest";

/**
 * The canonical JSON text of each deep-frozen formula object met so far. The formula is the bulk
 * of every manifest and the same for every agent of a season, so its text is built once; only a
 * frozen object is remembered, since only that can never change under the cache.
 */
const formulaTexts = new WeakMap<object, string>();

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

function formulaText(formula: object): string {
  const cached = formulaTexts.get(formula);
  if (cached !== undefined) return cached;
  const text = canonicalJson(formula);
  if (isDeepFrozen(formula)) formulaTexts.set(formula, text);
  return text;
}

/**
 * canonicalJson(manifest), assembled from its parts: a manifest's keys are exactly these five
 * (and `manifest_version` from version 2), and JCS writes an object as its members sorted by key,
 * which is the order below. Equal to `canonicalJson(manifest)` (property-tested).
 */
export function manifestText(manifest: ScoreManifest): string {
  const { formula, inputs, manifest_version, measured, outputs, subject } = manifest;
  const version =
    manifest_version === undefined ? "" : `"manifest_version":${canonicalJson(manifest_version)},`;
  return (
    `{"formula":${formulaText(formula)},"inputs":${canonicalJson(inputs)},${version}` +
    `"measured":${canonicalJson(measured)},"outputs":${canonicalJson(outputs)},` +
    `"subject":${canonicalJson(subject)}}`
  );
}

/** seal(manifest), from `manifestText`. Equal to `seal(manifest)` (property-tested). */
export function sealManifest(manifest: ScoreManifest): Hex32 {
  return sealText(manifestText(manifest));
}
