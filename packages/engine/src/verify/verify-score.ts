import {
  AugurError,
  type Hex32,
  recomputeManifest,
  seal as sealOf,
  sha256,
  toHex32,
  verifyInclusion,
} from "@augur/scorer";
import {
  errorMessage,
  type LeafResponse,
  parseLeafResponse,
  parseScoreResponse,
  UnexpectedResponseError,
} from "./responses";

/** The engine could not be reached, or refused the request. */
export class ApiRequestError extends AugurError {
  override readonly name = "ApiRequestError";
  constructor(url: string, problem: string) {
    super("API_REQUEST_FAILED", `${url}: ${problem}`, { url });
  }
}

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
  readonly fetch?: typeof fetch;
  /** When given, every anchor head is also checked on chain. */
  readonly chain?: HeadChecker;
}

export interface StepResult {
  readonly step: 1 | 2 | 3 | 4;
  readonly passed: boolean;
  readonly summary: string;
  readonly details: readonly string[];
}

export interface VerifyScoreReport {
  readonly seal: Hex32;
  readonly score: unknown;
  readonly steps: readonly StepResult[];
  readonly passed: boolean;
}

const short = (hex: string) => `${hex.slice(0, 10)}…`;
const where = (leaf: LeafResponse) =>
  `leaf ${leaf.leafIndex}, anchor ${leaf.anchor.index ?? "?"} (tree ${leaf.anchor.treeSize})`;

async function getJson(fetchFn: typeof fetch, url: string): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new ApiRequestError(url, `cannot reach the engine (${(error as Error).message})`);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw new UnexpectedResponseError(url, `HTTP ${response.status}, not JSON`);
  }
}

interface AnchoredSeal {
  readonly label: string;
  readonly seal: Hex32;
  readonly leaf: LeafResponse | null;
  readonly problem: string | null;
}

/** Fetches a seal's anchor and inclusion proof and checks it locally (and on chain when asked). */
async function checkAnchored(
  options: VerifyScoreOptions,
  fetchFn: typeof fetch,
  label: string,
  seal: Hex32,
): Promise<AnchoredSeal> {
  const url = `${options.api}/api/v1/anchors/leaves/${seal}`;
  const { status, body } = await getJson(fetchFn, url);
  if (status !== 200) {
    const message = errorMessage(body);
    const problem = status === 404 ? "not in a mined anchor (404" : `HTTP ${status} (`;
    return { label, seal, leaf: null, problem: `${problem}${message ? `: ${message}` : ""})` };
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
    };
  if (
    options.chain &&
    !(await options.chain.verifyInclusion(seal, leaf.leafIndex, leaf.anchor.treeSize, leaf.proof))
  )
    return { label, seal, leaf, problem: `${where(leaf)}: AnchorRegistry does not confirm this head` };
  return { label, seal, leaf, problem: null };
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

/**
 * The seed's four recompute steps against a running engine: (1) the manifest hashes to the seal;
 * (2) its snapshot and creator-input seals sit in mined anchors; (3) the named formula reproduces
 * every output; (4) the score's own seal sits in a later anchor than its inputs.
 */
export async function verifyScore(options: VerifyScoreOptions): Promise<VerifyScoreReport> {
  const fetchFn = options.fetch ?? fetch;
  const scoreUrl = `${options.api}/api/v1/agents/${encodeURIComponent(options.agent)}/score?season_id=${encodeURIComponent(options.season)}`;
  const { status, body } = await getJson(fetchFn, scoreUrl);
  if (status !== 200) {
    const message = errorMessage(body);
    throw new ApiRequestError(scoreUrl, `HTTP ${status}${message ? ` (${message})` : ""}`);
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
  for (const { label, seal } of inputSeals(manifest))
    inputs.push(await checkAnchored(options, fetchFn, label, seal));
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
  const own = await checkAnchored(options, fetchFn, "score", response.seal);
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
    summary:
      own.problem !== null
        ? `score seal ${short(response.seal)}: ${own.problem}`
        : late.length > 0
          ? `score seal ${short(response.seal)} does not join a later anchor than ${late.length} of its inputs`
          : `score seal ${short(response.seal)} at ${where(own.leaf!)}, a later anchor than its inputs${onChain}`,
    details: late.map(
      (input) => `${input.label} ${short(input.seal)} is anchored at tree ${input.leaf!.anchor.treeSize}`,
    ),
  });

  const outputs = (manifest.outputs ?? {}) as { score?: unknown };
  return { seal: response.seal, score: outputs.score, steps, passed: steps.every((s) => s.passed) };
}
