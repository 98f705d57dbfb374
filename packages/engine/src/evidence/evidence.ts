import { callPhase, latestPerCall, type Fields } from "@augur/records";
import { utcDay } from "@augur/scorer";
import { snapshotMessage } from "../store/agent-records";
import { agentBodies, evidenceGroups } from "../store/queries/evidence";
import { findRetirement } from "../store/queries/retirements";
import type { Store } from "../store/open";

/** The kinds of record a score or a risk row is computed from, that an agent may declare or the engine measure. */
const INPUTS = new Set(["snapshot", "decision", "trade"]);

/**
 * How well one agent's record is evidenced — deliberately apart from the risk score (seed 003:
 * "How well evidenced a strategy is lives in evidence"): nothing here is read by the risk step.
 */
export interface AgentEvidence {
  readonly agentId: string;
  readonly seasonId: string;
  /** Snapshots, decisions and trades: read from the chain by the engine vs signed by the agent. */
  readonly inputs: {
    readonly measured: number;
    readonly declared: number;
    readonly measuredShare: number | null;
  };
  /** Every record of the agent, and those a posted anchor covers. */
  readonly records: {
    readonly total: number;
    readonly anchored: number;
    readonly anchoredShare: number | null;
  };
  /** Calls committed or revealed and not yet settled or expired. */
  readonly openCalls: number;
  /** UTC days from the first snapshot's day to today, inclusive; null before the first snapshot. */
  readonly daysObserved: number | null;
  /** When the agent retired (its signed, sealed Retirement), or null while it is active. */
  readonly retiredAt: number | null;
}

const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** One agent's evidence as of `now` against the newest anchor's tree size. */
export async function agentEvidence(
  store: Store,
  seasonId: string,
  agentId: string,
  anchoredSize: number,
  now: number,
): Promise<AgentEvidence> {
  const db = store.db;
  const groups = await evidenceGroups(db, seasonId, agentId, anchoredSize);
  const sum = (keep: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(keep).reduce((n, g) => n + g.n, 0);
  const measured = sum((g) => INPUTS.has(g.kind) && g.engine);
  const declared = sum((g) => INPUTS.has(g.kind) && !g.engine);
  const total = sum(() => true);
  const anchored = sum((g) => g.anchored);
  const calls = latestPerCall(await agentBodies(db, seasonId, agentId, "call"), (b) => b);
  const openCalls = calls.filter((b) => callPhase(JSON.parse(b) as Fields) !== "resolved").length;
  const [first] = await agentBodies(db, seasonId, agentId, "snapshot", 1);
  const retirement = await findRetirement(db, seasonId, agentId);
  const daysObserved =
    first === undefined
      ? null
      : utcDay(now, "now") - utcDay(Number(snapshotMessage(first).takenAt), "takenAt") + 1;
  return {
    agentId,
    seasonId,
    inputs: { measured, declared, measuredShare: share(measured, measured + declared) },
    records: { total, anchored, anchoredShare: share(anchored, total) },
    openCalls,
    daysObserved,
    retiredAt: retirement === undefined ? null : Number(retirement.retired_at),
  };
}
