// Test helpers (not tests): RFC 9162 inclusion proofs over a list of seals, and an engine's
// recorded answers for `augur verify` and scripts/verify-by-hand.
import {
  canonicalJson,
  type Hex32,
  leafHash,
  merkleRoot,
  nodeHash,
  scoreSeason,
  seal,
  toHex32,
} from "@augur/scorer";
import { makeSeason } from "@augur/scorer/src/augur/fixture";

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeHash(leaves: readonly Hex32[]): Buffer {
  if (leaves.length === 1) return leafHash(leaves[0]!);
  const k = largestPowerOfTwoBelow(leaves.length);
  return nodeHash(subtreeHash(leaves.slice(0, k)), subtreeHash(leaves.slice(k)));
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1, leaf to root. */
export function inclusionProof(leaves: readonly Hex32[], index: number): Hex32[] {
  if (leaves.length <= 1) return [];
  const k = largestPowerOfTwoBelow(leaves.length);
  if (index < k) return [...inclusionProof(leaves.slice(0, k), index), toHex32(subtreeHash(leaves.slice(k)))];
  return [...inclusionProof(leaves.slice(k), index - k), toHex32(subtreeHash(leaves.slice(0, k)))];
}

export type Responses = Map<string, { status: number; body: unknown }>;

/**
 * A season scored by the scorer, its seals in a log anchored twice (inputs in anchor 0, the score
 * in anchor 1), as the engine's API answers: the score, each leaf, each snapshot record.
 */
export function recordedEngine(options: { scoreInFirstAnchor?: boolean; manifestAsText?: boolean } = {}) {
  const creatorSeal = seal({ prior: "sib" });
  const input = makeSeason(
    [
      { id: "me", creator: "c", style: "momentum", navs: [100, 102, 101, 104], ownDecisions: 6 },
      { id: "sib", creator: "c", navs: [100] },
    ],
    {
      prior_scores: [
        {
          agent: "sib",
          season_id: "s0",
          performance: 64,
          seal: creatorSeal,
          sealed_at: "2026-10-01T00:00:00Z",
        },
      ],
    },
  );
  const row = scoreSeason(input).rows.find((r) => r.agent_id === "me")!;
  const snapshotSeals = input.snapshots.filter((s) => s.agent === "me").map((s) => seal(s));
  const filler = (n: number) => seal({ filler: n });
  const log: Hex32[] = [...snapshotSeals, filler(1), creatorSeal, filler(2)];
  const firstHead = options.scoreInFirstAnchor ? log.length + 1 : log.length;
  log.push(row.seal, filler(3));
  // Shaped as the engine's API serves them (anchorView, proof { leafIndex, treeSize, hashes }).
  const heads = [firstHead, log.length].map((treeSize, anchorIndex) => ({
    anchorIndex,
    treeSize,
    root: merkleRoot(log.slice(0, treeSize)),
    chainId: 31337,
    blockNumber: 100 + anchorIndex,
  }));
  const responses: Responses = new Map();
  responses.set(`/api/v1/agents/me/score?season_id=s1`, {
    status: 200,
    body: {
      agentId: "me",
      seasonId: "s1",
      formula: "augur-score/v1",
      score: row.score,
      rank: row.rank,
      seal: row.seal,
      manifest: options.manifestAsText ? canonicalJson(row.manifest) : row.manifest,
      anchor: { status: "anchored" },
    },
  });
  log.forEach((leaf, leafIndex) => {
    const anchor = heads.find((h) => leafIndex < h.treeSize)!;
    const hashes = inclusionProof(log.slice(0, anchor.treeSize), leafIndex);
    responses.set(`/api/v1/anchors/leaves/${leaf}`, {
      status: 200,
      body: {
        status: "anchored",
        seal: leaf,
        leafIndex,
        anchor,
        proof: { leafIndex, treeSize: anchor.treeSize, hashes },
      },
    });
  });
  input.snapshots
    .filter((s) => s.agent === "me")
    .forEach((snapshot) =>
      responses.set(`/api/v1/records/${seal(snapshot)}`, {
        status: 200,
        body: { seal: seal(snapshot), body: snapshot },
      }),
    );
  return { responses, row, creatorSeal, snapshotSeals, heads };
}
