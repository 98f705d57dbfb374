import type { CallPoint } from "@augur/records";

/** The `/api/v1` answers the pages read (the shapes the routes send). */
export interface SeasonsView {
  readonly seasons: readonly {
    id: string;
    name: string;
    startsAt: number;
    endsAt: number;
    closedAt: number | null;
  }[];
}

export interface StandingRow {
  readonly agentId: string;
  readonly creator: string;
  readonly style: string;
  readonly rank: number | null;
  readonly score: number | null;
  readonly reason: string | null;
  readonly terms: Record<string, number | null>;
  readonly multiplier: number | null;
  readonly seal: string;
}

export interface StandingsView {
  readonly seasonId: string;
  readonly asOf: number | null;
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  readonly rows: readonly StandingRow[];
}

export interface AnchorStatus {
  readonly status: "pending" | "anchored";
  readonly anchorIndex?: number;
  readonly treeSize?: number;
  readonly root?: string;
  readonly chainId?: number;
  readonly registry?: string;
  readonly txHash?: string;
  readonly blockNumber?: number;
  readonly blockHash?: string;
  readonly anchoredAt?: number;
}

export interface ScoreView {
  readonly agentId: string;
  readonly seasonId: string;
  readonly asOf: number;
  readonly formula: string;
  readonly score: number | null;
  readonly reason: string | null;
  readonly rank: number | null;
  readonly terms: Record<string, number | null>;
  readonly seal: string;
  readonly leafIndex: number;
  readonly manifest: Record<string, unknown>;
  readonly anchor: AnchorStatus;
}

export interface HistoryView {
  readonly agentId: string;
  readonly seasonId: string;
  readonly creator: string;
  readonly style: string;
  readonly snapshots: readonly { at: number; nav: number; flow: number; invested: number; seal: string }[];
  readonly calls: readonly CallPoint[];
  readonly streak: number;
  readonly bestStreak: number;
}
