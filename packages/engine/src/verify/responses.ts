import { AugurError, type Hex32, isHex32 } from "@augur/scorer";

// The two engine responses `augur verify` reads, checked and reduced to what the steps need.
// Shapes follow the engine's API (camelCase; the proof as { leafIndex, treeSize, hashes });
// snake_case spellings and a bare proof array are accepted as well.

/** A response that is not what the API documents. */
export class UnexpectedResponseError extends AugurError {
  override readonly name = "UnexpectedResponseError";
  constructor(url: string, problem: string) {
    super("UNEXPECTED_RESPONSE", `${url}: ${problem}`, { url });
  }
}

export interface ScoreResponse {
  readonly seal: Hex32;
  /** The manifest as the engine serves it: its canonical text, or the parsed object. */
  readonly manifest: unknown;
  /** `anchor.status` of the score row: "pending" until the anchor covering its seal is mined. */
  readonly anchorStatus: string | null;
}

export interface AnchorRef {
  /** Position of the head in AnchorRegistry, when the API gives it. */
  readonly index: number | null;
  readonly treeSize: number;
  readonly root: Hex32;
}

export interface LeafResponse {
  readonly leafIndex: number;
  readonly proof: readonly Hex32[];
  /** The first mined anchor whose tree holds the leaf. */
  readonly anchor: AnchorRef;
}

type Json = Record<string, unknown>;

function pick(body: Json, ...names: string[]): unknown {
  for (const name of names) if (body[name] !== undefined) return body[name];
  return undefined;
}

function asObject(value: unknown, url: string, what: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UnexpectedResponseError(url, `${what} is not an object`);
  return value as Json;
}

function count(value: unknown, url: string, what: string): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new UnexpectedResponseError(url, `${what} is not a non-negative integer`);
  return n;
}

function hex32(value: unknown, url: string, what: string): Hex32 {
  const text = typeof value === "string" ? value.toLowerCase() : value;
  if (!isHex32(text)) throw new UnexpectedResponseError(url, `${what} is not a 32-byte hex value`);
  return text;
}

/** The message of an error body: `{ error: { code, message } }` (or a bare `{ message }`). */
export function errorMessage(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const error = (body as Json).error;
  const message =
    typeof error === "object" && error !== null ? (error as Json).message : (body as Json).message;
  return typeof message === "string" ? message : null;
}

export function parseScoreResponse(body: unknown, url: string): ScoreResponse {
  const root = asObject(body, url, "the response");
  const row =
    root.manifest === undefined && root.score !== undefined ? asObject(root.score, url, "score") : root;
  const manifest = row.manifest;
  if (manifest === undefined) throw new UnexpectedResponseError(url, "has no manifest");
  const anchor = row.anchor as Json | undefined;
  const status = typeof anchor === "object" && anchor !== null ? anchor.status : undefined;
  return {
    seal: hex32(row.seal, url, "seal"),
    manifest,
    anchorStatus: typeof status === "string" ? status : null,
  };
}

export function parseLeafResponse(body: unknown, url: string): LeafResponse {
  const root = asObject(body, url, "the response");
  const anchor = asObject(root.anchor, url, "anchor");
  const leafIndex = count(pick(root, "leafIndex", "leaf_index"), url, "leafIndex");
  const treeSize = count(pick(anchor, "treeSize", "tree_size"), url, "anchor.treeSize");
  let proof = pick(root, "proof", "inclusion_proof", "inclusionProof");
  if (typeof proof === "object" && proof !== null && !Array.isArray(proof)) {
    const shaped = proof as Json;
    // The proof names its own position; it must be the leaf's, in the anchor's tree.
    if (shaped.leafIndex !== undefined && count(shaped.leafIndex, url, "proof.leafIndex") !== leafIndex)
      throw new UnexpectedResponseError(url, "proof.leafIndex differs from leafIndex");
    if (shaped.treeSize !== undefined && count(shaped.treeSize, url, "proof.treeSize") !== treeSize)
      throw new UnexpectedResponseError(url, "proof.treeSize differs from anchor.treeSize");
    proof = shaped.hashes;
  }
  if (!Array.isArray(proof)) throw new UnexpectedResponseError(url, "proof hashes are not an array");
  const index = pick(anchor, "anchorIndex", "index", "anchor_index");
  return {
    leafIndex,
    proof: proof.map((p, i) => hex32(p, url, `proof[${i}]`)),
    anchor: {
      index: index === undefined || index === null ? null : count(index, url, "anchor.anchorIndex"),
      treeSize,
      root: hex32(anchor.root, url, "anchor.root"),
    },
  };
}
