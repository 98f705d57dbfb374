import { createHash } from "node:crypto";
import { toHex32, type Hex32 } from "@augur/scorer";
import type { AgentInputs, Scorer, SeasonHeader, SeasonScoring } from "../../src/cycle/seams";
import type { AnchorReceipt, Keeper, LogHead } from "../../src/keeper/seam";
import { ingestRecord, type Submission } from "../../src/records/ingest";
import {
  addTestSeason,
  registerTestAgent,
  sign,
  snapshot,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../records/testing";
import type { Store } from "../../src/store/open";
import type { FoldTable } from "../../src/store/queries/score-states";

/** A keeper double over an in-memory "registry": idempotent per head, optionally slow to mine. */
export class FakeKeeper implements Keeper {
  readonly posted: LogHead[] = [];
  /** How many calls answer "pending" before a posted head counts as mined. */
  pendingCalls = 0;

  async anchor(head: LogHead): Promise<AnchorReceipt | undefined> {
    let index = this.posted.findIndex((h) => h.treeSize === head.treeSize);
    if (index < 0) {
      this.posted.push(head);
      index = this.posted.length - 1;
    }
    if (this.pendingCalls > 0) {
      this.pendingCalls -= 1;
      return undefined;
    }
    const posted = this.posted[index]!;
    return {
      anchorIndex: index,
      treeSize: posted.treeSize,
      root: posted.root,
      chainId: 31337,
      registry: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
      txHash: toHex32(createHash("sha256").update(`tx ${index}`).digest()),
      blockNumber: 10 + index,
      blockHash: toHex32(createHash("sha256").update(`block ${index}`).digest()),
      anchoredAt: 1_800_000_000 + index,
    };
  }
}

/** A scorer double (the real one is packages/scorer's): 10 points per anchored snapshot. */
export class CountingScorer implements Scorer {
  readonly headers: SeasonHeader[] = [];
  readonly agentsSeen: AgentInputs[] = [];

  openSeason(header: SeasonHeader): SeasonScoring {
    this.headers.push(header);
    const scored: Array<{ agent: AgentInputs; snapshots: Hex32[]; score: number | null }> = [];
    return {
      scoreAgent: (agent) => {
        this.agentsSeen.push(agent);
        const { snapshots: columns } = agent.records;
        const snapshots = Array.from({ length: columns.length }, (_, i) => columns.seal(i));
        scored.push({ agent, snapshots, score: snapshots.length === 0 ? null : snapshots.length * 10 });
      },
      finish: () => {
        const ranked = scored.filter((s) => s.score !== null).sort((x, y) => y.score! - x.score!);
        return scored.map((s) => ({
          agentId: s.agent.agentId,
          formula: "counting/test",
          score: s.score,
          reason: s.score === null ? "no_snapshots" : null,
          rank: s.score === null ? null : ranked.findIndex((r) => r.score === s.score) + 1,
          terms: { snapshots: s.snapshots.length },
          manifest: {
            formula: "counting/test",
            agent: s.agent.agentId,
            asOf: header.asOf,
            snapshots: s.snapshots,
          },
        }));
      },
    };
  }
}

/** A season with one registered agent, `alpha`, and one snapshot: the least a score step reads. */
export async function addSeasonWithOneAgent(store: Store): Promise<void> {
  await addTestSeason(store);
  const ingest = (s: Submission) =>
    ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity });
  const { agent } = await registerTestAgent(ingest, "alpha");
  await ingest(await sign("Snapshot", snapshot("alpha", TEST_NOW - 100), agent));
}

/** Every fold row stored in `table` as [agent, created_at], by time and then agent. */
export async function storedFolds(store: Pick<Store, "db">, table: FoldTable): Promise<[string, number][]> {
  const rows = await store.db
    .selectFrom(table)
    .select(["agent_id", "created_at"])
    .orderBy("created_at")
    .orderBy("agent_id")
    .execute();
  return rows.map((r) => [r.agent_id, Number(r.created_at)]);
}
