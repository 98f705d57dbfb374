import { AUGUR_SCORE_V1, competitionRanks, TERM_NAMES } from "@augur/scorer";
import type { Store } from "../../src/store/open";
import { registerSeedAgents, sealSeedScores, seasonStore } from "../store/seed";

const START = 1_800_000_000;
/** The one scoring hour of the seeded season (unix seconds). */
export const AS_OF = START + 10 * 86_400;
const STYLES = ["momentum", "mean-reversion", "trend-following", "market-neutral", "discretionary"];

/** A pseudo-random but repeatable number in [0, 1). */
const noise = (i: number, k: number) => {
  const x = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
  return x - Math.floor(x);
};

/** One manifest shaped like augur-score/v1's (the real formula object, synthetic measurements). */
function manifest(id: string, creator: string, style: string, i: number, score: number | null) {
  const terms = Object.fromEntries(
    TERM_NAMES.map((t, k) => [t, score === null ? null : Math.round(noise(i, k) * 1000) / 10]),
  );
  return {
    formula: AUGUR_SCORE_V1,
    subject: { agent: id, creator, style, season_id: "s1", as_of: new Date(AS_OF * 1000).toISOString() },
    inputs: {
      snapshot_count: 10,
      snapshot_root: `0x${"11".repeat(32)}`,
      first_snapshot_seal: null,
      last_snapshot_seal: null,
      decision_count: 9,
      own_decision_count: 8,
      trade_count: 6,
    },
    measured:
      score === null
        ? null
        : {
            return: noise(i, 7) / 10,
            sigma: 0.01,
            max_drawdown: 0.02,
            exposure: 0.6,
            days: 10,
            calibration_calls: 6,
            brier: 0.2,
            creator_inputs: [],
            dna: {
              trades_per_day: 0.6,
              decisions_per_day: 0.8,
              holding_hours: 20,
              directional_bias: 0,
              prior_move_alignment: 0.3,
            },
            match: 0.9,
          },
    outputs: {
      terms,
      weights_used: {},
      weighted: score,
      multiplier: score === null ? null : 0.98,
      score,
      reason: score === null ? "too_few_snapshots" : null,
    },
  };
}

/**
 * An in-memory SQLite store with one season ("s1") of `agents` agents, each with a sealed score
 * manifest shaped like augur-score/v1's (the real formula object, synthetic measurements) for
 * one scoring hour; every tenth agent is unranked (too_few_snapshots). Fast enough for 10,000
 * (the leaderboard bench) and for the pagination tests.
 */
export async function seedManyAgents(agents: number): Promise<Store> {
  const store = await seasonStore({ startsAt: START, name: "Bench" });
  const scores = Array.from({ length: agents }, (_, i) =>
    i % 10 === 9 ? null : Math.round(noise(i, 9) * 1000) / 10,
  );
  const rankOf = competitionRanks(scores);
  const creatorOf = (i: number) => `0x${(i % 3000).toString(16).padStart(40, "0")}`;
  for (let from = 0; from < agents; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, agents - from) }, (_, k) => from + k);
    await store.db.transaction().execute(async (trx) => {
      await registerSeedAgents(
        trx,
        ids.map((i) => ({
          id: `agent-${i}`,
          creator: creatorOf(i),
          style: STYLES[i % 5]!,
          agentKey: `0x${(i + 1).toString(16).padStart(40, "0")}`,
          registration: { bench: i },
        })),
        START,
      );
      await sealSeedScores(
        trx,
        ids.map((i) => {
          const body = manifest(`agent-${i}`, creatorOf(i), STYLES[i % 5]!, i, scores[i]!);
          return {
            agentId: `agent-${i}`,
            manifest: body,
            row: {
              formula: "augur-score/v1",
              score: scores[i]!,
              reason: scores[i] === null ? "too_few_snapshots" : null,
              rank: rankOf[i] ?? null,
              terms: JSON.stringify(body.outputs.terms),
            },
          };
        }),
        AS_OF,
      );
    });
  }
  return store;
}
