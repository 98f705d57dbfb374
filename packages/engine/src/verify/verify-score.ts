import {
  type Hex32,
  recomputeManifest,
  seal as sealOf,
  sha256,
  toHex32,
  verifyInclusion,
} from "@augur/scorer";
import { type HttpOptions, RequestFailedError, requestJson } from "./http";
import {
  errorMessage,
  type LeafResponse,
  parseLeafResponse,
  parseScoreResponse,
  UnexpectedResponseError,
} from "./responses";

/** Checks a head on chain: AnchorRegistry.verifyInclusion(seal, leafIndex, treeSize, proof). */
export interface HeadChecker {
  verifyInclusion(
    seal: Hex32,
    leafIndex: number,
    treeSize: number,
    proof: readonly Hex32[],
  ): Promise<boolean>;
}

export interface VerifyScoreOptions {
  readonly api: string;
  readonly agent: string;
  readonly season: string;
  /** The HTTP client and each request's deadline. */
  readonly http: HttpOptions;
  /** When given, every anchor head is also checked on chain. */
  readonly chain?: HeadChecker;
  /** How long to wait for the score's anchor when it is pending (0: report pending at once). */
  readonly waitMs?: number;
  /** How often to ask again while waiting (default 1 s). */
  readonly pollMs?: number;
}

export interface StepResult {
  readonly step: 1 | 2 | 3 | 4;
  readonly passed: boolean;
  /** Step 4 only: the score's seal is in the log but its anchor is not mined yet. */
  readonly pending?: boolean;
  readonly summary: string;
  readonly details: readonly string[];
}

export interface VerifyScoreReport {
  readonly seal: Hex32;
  /** The manifest as served, parsed (what `--deep` rebuilds). */
  readonly manifest: Record<string, unknown>;
  readonly score: unknown;
  readonly steps: readonly StepResult[];
  readonly passed: boolean;
  /** Steps 1–3 passed and the score's own anchor is not mined yet. */
  readonly pending: boolean;
}

const short = (hex: string) => `${hex.slice(0, 10)}…`;
const where = (leaf: LeafResponse) =>
  `leaf ${leaf.leafIndex}, anchor ${leaf.anchor.index ?? "?"} (tree ${leaf.anchor.treeSize})`;

interface AnchoredSeal {
  readonly label: string;
  readonly seal: Hex32;
  readonly leaf: LeafResponse | null;
  readonly problem: string | null;
  /** In the log, not yet anchored (the engine answered 404 with status "pending"). */
  readonly pending: boolean;
}

/** Fetches a seal's anchor and inclusion proof and checks it locally (and on chain when asked). */
async function checkAnchored(options: VerifyScoreOptions, label: string, seal: Hex32): Promise<AnchoredSeal> {
  const url = `${options.api}/api/v1/anchors/leaves/${seal}`;
  const { status, body } = await requestJson(url, options.http, undefined, "the engine");
  if (status !== 200) {
    const message = errorMessage(body);
    const problem = status === 404 ? "not in a mined anchor (404" : `HTTP ${status} (`;
    const pending = status === 404 && (body as { status?: unknown } | null)?.status === "pending";
    return { label, seal, leaf: null, problem: `${problem}${message ? `: ${message}` : ""})`, pending };
  }
  const leaf = parseLeafResponse(body, url);
  if (
    !verifyInclusion(seal, {
      leafIndex: leaf.leafIndex,
      treeSize: leaf.anchor.treeSize,
      root: leaf.anchor.root,
      proof: leaf.proof,
    })
  )
    return {
      label,
      seal,
      leaf,
      problem: `${where(leaf)}: the inclusion proof does not lead to the anchor's root`,
      pending: false,
    };
  if (
    options.chain &&
    !(await options.chain.verifyInclusion(seal, leaf.leafIndex, leaf.anchor.treeSize, leaf.proof))
  )
    return {
      label,
      seal,
      leaf,
      problem: `${where(leaf)}: AnchorRegistry does not confirm this head`,
      pending: false,
    };
  return { label, seal, leaf, problem: null, pending: false };
}

function describe(checked: AnchoredSeal): string {
  const outcome = checked.problem ?? `${where(checked.leaf!)}, proof checked`;
  return `${checked.label} ${short(checked.seal)}: ${outcome}`;
}

/** The seals a manifest names as inputs: first and last snapshot, then each creator input. */
function inputSeals(manifest: Record<string, unknown>): { label: string; seal: Hex32 }[] {
  const inputs = (manifest.inputs ?? {}) as Record<string, unknown>;
  const measured = (manifest.measured ?? null) as {
    creator_inputs?: { agent: string; seal: Hex32 }[];
  } | null;
  const named: { label: string; seal: Hex32 }[] = [];
  if (typeof inputs.first_snapshot_seal === "string")
    named.push({ label: "first snapshot", seal: inputs.first_snapshot_seal as Hex32 });
  if (
    typeof inputs.last_snapshot_seal === "string" &&
    inputs.last_snapshot_seal !== inputs.first_snapshot_seal
  )
    named.push({ label: "last snapshot", seal: inputs.last_snapshot_seal as Hex32 });
  for (const input of measured?.creator_inputs ?? [])
    named.push({ label: `creator input ${input.agent}`, seal: input.seal });
  return named;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The seed's four recompute steps against a running engine: (1) the manifest hashes to the seal;
 * (2) its snapshot and creator-input seals sit in mined anchors; (3) the named formula reproduces
 * every output; (4) the score's own seal sits in a later anchor than its inputs. While the
 * latest score's anchor is pending, asks again every `pollMs` for up to `waitMs`.
 */
export async function verifyScore(options: VerifyScoreOptions): Promise<VerifyScoreReport> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const report = await verifyOnce(options);
    const left = deadline - Date.now();
    if (!report.pending || left <= 0) return report;
    await sleep(Math.min(options.pollMs ?? 1000, left));
  }
}

async function verifyOnce(options: VerifyScoreOptions): Promise<VerifyScoreReport> {
  const scoreUrl = `${options.api}/api/v1/agents/${encodeURIComponent(options.agent)}/score?season_id=${encodeURIComponent(options.season)}`;
  const { status, body } = await requestJson(scoreUrl, options.http, undefined, "the engine");
  if (status !== 200) {
    const message = errorMessage(body);
    throw new RequestFailedError(scoreUrl, `HTTP ${status}${message ? ` (${message})` : ""}`);
  }
  const response = parseScoreResponse(body, scoreUrl);
  const steps: StepResult[] = [];
  const onChain = options.chain ? "; heads checked on chain" : "";

  // Step 1: the canonical text as served, or the canonical form of the object, hashes to the seal.
  let manifest: Record<string, unknown> | null = null;
  let hashed: Hex32;
  if (typeof response.manifest === "string") {
    hashed = toHex32(sha256(response.manifest));
    try {
      manifest = JSON.parse(response.manifest) as Record<string, unknown>;
    } catch {
      manifest = null;
    }
  } else {
    manifest = response.manifest as Record<string, unknown>;
    hashed = sealOf(response.manifest);
  }
  steps.push({
    step: 1,
    passed: hashed === response.seal,
    summary:
      hashed === response.seal
        ? `sha256(manifest) equals the seal ${short(response.seal)}`
        : `sha256(manifest) is ${short(hashed)}, the seal is ${short(response.seal)}`,
    details: [],
  });
  if (manifest === null || typeof manifest !== "object")
    throw new UnexpectedResponseError(scoreUrl, "the manifest is not a JSON object");

  // Step 2: every input seal the manifest names sits in a mined anchor.
  const inputs: AnchoredSeal[] = [];
  for (const { label, seal } of inputSeals(manifest)) inputs.push(await checkAnchored(options, label, seal));
  const inputsOk = inputs.every((i) => i.problem === null);
  steps.push({
    step: 2,
    passed: inputsOk,
    summary: `${inputs.filter((i) => i.problem === null).length} of ${inputs.length} input seals sit in mined anchors (proofs checked locally${onChain})`,
    details: inputs.map(describe),
  });

  // Step 3: the named formula, over the measured values, reproduces every output.
  let step3: StepResult;
  try {
    const result = recomputeManifest(manifest);
    const failed = result.checks.filter((c) => !c.ok);
    step3 = {
      step: 3,
      passed: result.ok,
      summary: result.ok
        ? `${result.formula} reproduces all ${result.checks.length} checked values`
        : `${result.formula}: ${failed.length} of ${result.checks.length} values differ`,
      details: failed.map(
        (c) =>
          `${c.field}: manifest ${JSON.stringify(c.manifest)}, recomputed ${JSON.stringify(c.recomputed)}`,
      ),
    };
  } catch (error) {
    step3 = { step: 3, passed: false, summary: (error as Error).message, details: [] };
  }
  steps.push(step3);

  // Step 4: the score's own seal is anchored, and it joined the log after its inputs' anchors.
  // A row served as pending is not looked up: its anchor is not mined yet, whatever the log holds.
  const own: AnchoredSeal =
    response.anchorStatus === "pending"
      ? { label: "score", seal: response.seal, leaf: null, problem: "not anchored yet", pending: true }
      : await checkAnchored(options, "score", response.seal);
  const late = own.leaf
    ? inputs.filter(
        (input) =>
          input.leaf !== null &&
          (own.leaf!.leafIndex < input.leaf.anchor.treeSize ||
            (own.leaf!.anchor.index !== null &&
              input.leaf.anchor.index !== null &&
              own.leaf!.anchor.index <= input.leaf.anchor.index)),
      )
    : [];
  steps.push({
    step: 4,
    passed: own.problem === null && late.length === 0,
    pending: own.pending,
    summary: own.pending
      ? `score seal ${short(response.seal)} is not anchored yet: its anchor is not mined`
      : own.problem !== null
        ? `score seal ${short(response.seal)}: ${own.problem}`
        : late.length > 0
          ? `score seal ${short(response.seal)} does not join a later anchor than ${late.length} of its inputs`
          : `score seal ${short(response.seal)} at ${where(own.leaf!)}, a later anchor than its inputs${onChain}`,
    details: late.map(
      (input) => `${input.label} ${short(input.seal)} is anchored at tree ${input.leaf!.anchor.treeSize}`,
    ),
  });

  const outputs = (manifest.outputs ?? {}) as { score?: unknown };
  const passed = steps.every((s) => s.passed);
  const pending = own.pending && steps.every((s) => s.passed || s.pending);
  return { seal: response.seal, manifest, score: outputs.score, steps, passed, pending };
}
