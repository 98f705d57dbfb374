import type { FastifyInstance } from "fastify";
import { appendEngineRecords } from "../../src/store/append";
import { TEST_CHAIN_ID, TEST_NOW } from "../records/testing";
import type { Store } from "../../src/store/open";
import { insertAnchor } from "../../src/store/queries/anchors";
import { insertScore } from "../../src/store/queries/scores";
import { buildApp } from "../../src/api/app";

export function testApp(store: Store, writesPerMinute = 1_000_000): Promise<FastifyInstance> {
  // Tests seed whole seasons after the fact: no grace limit (ingestion tests check the grace).
  return buildApp(
    { store, chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity },
    { writesPerMinute },
  );
}

export const REGISTRY = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";

/** Stores one score row with a manifest record, as the cycle will. */
export async function addTestScore(
  store: Store,
  row: {
    agentId: string;
    seasonId: string;
    asOf: number;
    score: number | null;
    reason: string | null;
    rank: number | null;
  },
): Promise<string> {
  const manifest = {
    formula: "augur-score/v1",
    agent: row.agentId,
    season: row.seasonId,
    asOf: row.asOf,
    score: row.score,
  };
  return store.db.transaction().execute(async (trx) => {
    const [stored] = await appendEngineRecords(
      trx,
      [{ kind: "score", agentId: row.agentId, seasonId: row.seasonId, body: manifest }],
      row.asOf,
    );
    await insertScore(trx, {
      agent_id: row.agentId,
      season_id: row.seasonId,
      as_of: row.asOf,
      formula: "augur-score/v1",
      score: row.score,
      reason: row.reason,
      rank: row.rank,
      terms: JSON.stringify({ performance: 50 }),
      seal: stored!.seal,
      created_at: row.asOf,
    });
    return stored!.seal;
  });
}

/** Records an anchor of the whole current log, as the keeper will once mined. */
export async function anchorWholeLog(store: Store, anchorIndex: number): Promise<number> {
  const treeSize = await store.log.size(store.db);
  await insertAnchor(store.db, {
    anchor_index: anchorIndex,
    tree_size: treeSize,
    root: await store.log.root(store.db, treeSize),
    chain_id: TEST_CHAIN_ID,
    registry: REGISTRY,
    tx_hash: `0x${"7a".repeat(31)}${anchorIndex.toString(16).padStart(2, "0")}`,
    block_number: 100 + anchorIndex,
    block_hash: `0x${"b1".repeat(32)}`,
    anchored_at: TEST_NOW,
    recorded_at: TEST_NOW,
  });
  return treeSize;
}
