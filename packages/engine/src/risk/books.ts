import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import { seasonAgents, seasonRecords } from "../site/api/queries";
import { decisionPoint, snapshotPoint, tradePoint } from "../site/api/record-bodies";
import type { AgentBook } from "./view";

/**
 * Every registered agent's snapshots, trades and decisions of a season, each in time order; with
 * `belowLeaf`, only what the log held below that size (agents and records alike).
 */
export async function seasonBooks(
  db: Kysely<Database>,
  seasonId: string,
  belowLeaf?: number,
): Promise<AgentBook[]> {
  const [agents, records] = await Promise.all([
    seasonAgents(db, seasonId, belowLeaf),
    seasonRecords(db, seasonId, ["snapshot", "trade", "decision"], undefined, belowLeaf),
  ]);
  const books = new Map(
    agents.map((a) => [
      a.id,
      {
        snapshots: [] as AgentBook["snapshots"][number][],
        trades: [] as AgentBook["trades"][number][],
        decisions: [] as AgentBook["decisions"][number][],
      },
    ]),
  );
  for (const r of records) {
    const book = books.get(r.agent_id);
    if (!book) continue;
    if (r.kind === "snapshot") book.snapshots.push(snapshotPoint(r.body, r.seal));
    else if (r.kind === "trade") book.trades.push(tradePoint(r.body));
    else book.decisions.push(decisionPoint(r.body));
  }
  return [...books].map(([agentId, b]) => ({
    agentId,
    snapshots: b.snapshots.sort((x, y) => x.at - y.at),
    trades: b.trades.sort((x, y) => x.at - y.at),
    decisions: b.decisions.sort((x, y) => x.at - y.at),
  }));
}
