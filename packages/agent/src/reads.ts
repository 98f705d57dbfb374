import type { LedgerContext } from "./client";
import { directionName } from "./commitment";

/** An agent's record on the ledger; score has 18 decimals. */
export interface AgentStanding {
  readonly agent: string;
  readonly stake: bigint;
  readonly commits: bigint;
  readonly openCalls: bigint;
  readonly hits: bigint;
  readonly misses: bigint;
  readonly voids: bigint;
  readonly streak: bigint;
  readonly bestStreak: bigint;
  readonly score: bigint;
}

export async function readStanding(
  context: LedgerContext,
  agent: string = context.agent,
): Promise<AgentStanding> {
  const [record, score] = await Promise.all([
    context.ledger.getFunction("record")(agent) as Promise<Omit<AgentStanding, "agent" | "score">>,
    context.ledger.getFunction("score")(agent) as Promise<bigint>,
  ]);
  return {
    agent,
    stake: record.stake,
    commits: record.commits,
    openCalls: record.openCalls,
    hits: record.hits,
    misses: record.misses,
    voids: record.voids,
    streak: record.streak,
    bestStreak: record.bestStreak,
    score,
  };
}

/** The round a call revealed now would land in, and where it stands. */
export interface ConsensusView {
  readonly asset: string;
  readonly window: number;
  readonly bucket: bigint;
  readonly upWeight: bigint;
  readonly downWeight: bigint;
  readonly voters: number;
  /** "none" until quorum and threshold both hold. */
  readonly direction: "none" | "up" | "down";
  readonly quorum: number;
  readonly thresholdBps: number;
}

export async function readConsensus(
  context: LedgerContext,
  asset: string,
  window: number,
): Promise<ConsensusView> {
  const [result, quorum, thresholdBps] = await Promise.all([
    context.ledger.getFunction("consensus")(asset, window) as Promise<
      [bigint, bigint, bigint, bigint, bigint]
    >,
    context.ledger.getFunction("consensusQuorum")() as Promise<bigint>,
    context.ledger.getFunction("thresholdBps")() as Promise<bigint>,
  ]);
  const [bucket, upWeight, downWeight, voters, direction] = result;
  return {
    asset,
    window,
    bucket,
    upWeight,
    downWeight,
    voters: Number(voters),
    direction: directionName(Number(direction)),
    quorum: Number(quorum),
    thresholdBps: Number(thresholdBps),
  };
}

/** 18-decimal fixed point to a short decimal string (for people; JSON keeps the integer). */
export function formatFixed18(value: bigint, digits = 4): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 10n ** 18n;
  const fraction = (abs % 10n ** 18n).toString().padStart(18, "0").slice(0, digits);
  return `${negative ? "-" : ""}${whole}${digits > 0 ? `.${fraction}` : ""}`;
}
