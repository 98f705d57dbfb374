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

/** A manifest's canonical text and its seal. */
export interface SealedManifest {
  readonly text: string;
  readonly seal: Hex32;
}

/**
 * The text and seal of each manifest `sealManifest` froze and sealed, so whoever stores it (the
 * engine's score step) reuses the very text the seal was taken of instead of writing it again.
 */
const sealedManifests = new WeakMap<ScoreManifest, SealedManifest>();

/** Freezes `value` and everything under it (`for … in`: a third of the cost of `Object.values` here). */
function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
}

/** Freezes a manifest and its own parts, not its formula (the caller's object, frozen or not). */
function freezeManifest(manifest: ScoreManifest): void {
  for (const key in manifest) if (key !== "formula") deepFreeze(manifest[key as keyof ScoreManifest]);
  Object.freeze(manifest);
}

/**
 * `manifestText(manifest)` and its seal; a manifest `sealManifest` sealed gives back the text it
 * sealed, built once (its parts were frozen then, and its formula was deep-frozen, so the text
 * cannot be stale).
 */
export function sealedManifest(manifest: ScoreManifest): SealedManifest {
  const known = sealedManifests.get(manifest);
  if (known !== undefined) return known;
  const text = manifestText(manifest);
  return { text, seal: sealText(text) };
}

/**
 * seal(manifest), from `manifestText`. Equal to `seal(manifest)` (property-tested). Freezes the
 * manifest's own parts (a sealed manifest is not to change) and remembers its text when its formula
 * is deep-frozen too.
 */
export function sealManifest(manifest: ScoreManifest): Hex32 {
  const sealed = sealedManifest(manifest);
  freezeManifest(manifest);
  if (formulaTexts.has(manifest.formula)) sealedManifests.set(manifest, sealed);
  return sealed.seal;
}
