import { AugurError } from "../errors";
import { canonicalJson } from "../seal";
import { ineligibleReason } from "./eligibility";
import { FORMULAS, TERM_NAMES } from "./formula";
import { deriveMatch, deriveOutputs, type ManifestOutputs, type ScoreManifest } from "./manifest";

/** A manifest names a formula version this build does not know. */
export class UnknownFormulaError extends AugurError {
  override readonly name = "UnknownFormulaError";
  constructor(version: unknown) {
    super("UNKNOWN_FORMULA", `unknown formula version ${JSON.stringify(version)}`, { version });
  }
}

/** The manifest is not shaped like a score manifest at all. */
export class MalformedManifestError extends AugurError {
  override readonly name = "MalformedManifestError";
  constructor(path: string, problem: string) {
    super("MALFORMED_MANIFEST", `manifest ${path} ${problem}`, { path });
  }
}

export interface RecomputeCheck {
  /** Dotted path of the compared value, e.g. `outputs.terms.risk`. */
  readonly field: string;
  readonly ok: boolean;
  readonly manifest: unknown;
  readonly recomputed: unknown;
}

export interface RecomputeResult {
  readonly formula: string;
  readonly ok: boolean;
  readonly checks: readonly RecomputeCheck[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/**
 * Seed step 3: runs the named formula version, with this build's copy of its constants, over
 * the manifest's measured values, and compares every output (and the constants themselves).
 */
export function recomputeManifest(manifest: unknown): RecomputeResult {
  if (!isObject(manifest)) throw new MalformedManifestError("$", "is not an object");
  for (const key of ["formula", "subject", "inputs", "outputs"] as const)
    if (!isObject(manifest[key])) throw new MalformedManifestError(key, "is missing or not an object");
  if (!("measured" in manifest)) throw new MalformedManifestError("measured", "is missing");
  const version = (manifest.formula as Record<string, unknown>).version;
  const formula = typeof version === "string" ? FORMULAS[version] : undefined;
  if (!formula) throw new UnknownFormulaError(version);

  const m = manifest as unknown as ScoreManifest;
  const checks: RecomputeCheck[] = [];
  const check = (field: string, stated: unknown, recomputed: unknown) =>
    checks.push({ field, ok: same(stated, recomputed), manifest: stated, recomputed });

  check("formula", m.formula, formula);
  const eligible =
    m.inputs.invalid_input === undefined &&
    ineligibleReason(m.inputs.snapshot_count, m.inputs.own_decision_count, formula) === null;
  check("measured (present exactly when eligible)", m.measured !== null, eligible);
  let outputs: ManifestOutputs;
  try {
    if (m.measured !== null)
      check("measured.match", m.measured.match, deriveMatch(m.measured.dna, m.subject, m.inputs, formula));
    outputs = deriveOutputs(m.subject, m.inputs, m.measured, formula);
  } catch (error) {
    throw new MalformedManifestError("measured", `cannot be recomputed (${(error as Error).message})`);
  }
  for (const name of TERM_NAMES) check(`outputs.terms.${name}`, m.outputs.terms?.[name], outputs.terms[name]);
  check("outputs.weights_used", m.outputs.weights_used, outputs.weights_used);
  check("outputs.weighted", m.outputs.weighted, outputs.weighted);
  check("outputs.multiplier", m.outputs.multiplier, outputs.multiplier);
  check("outputs.score", m.outputs.score, outputs.score);
  check("outputs.reason", m.outputs.reason, outputs.reason);
  return { formula: formula.version, ok: checks.every((c) => c.ok), checks };
}
