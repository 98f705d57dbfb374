import { appendEngineRecords } from "../../store/append";
import { hasSeasonRowsAt, insertScores } from "../../store/queries/scores";
import { ManifestSealMismatchError } from "../augur-scorer";
import { agentInputs, loadSeasonHeader } from "../inputs";
import { insertScoreStates } from "../../store/queries/score-states";
import type { ScoreOutcome, Scorer, SeasonScoring } from "../seams";
import { formulaAt, FormulaMismatchError, type FormulaVersions } from "../../modes/formulas";
import { CYCLE_SECONDS, seasonsInTurn, type CycleContext, type CycleStep } from "./step";

/**
 * Score: every season open this hour (and once more in the hour after its close) is scored by
 * `scorer` from the records below the newest anchor; the manifests are sealed and appended to
 * the log, so they join the next anchor. A season already scored at this hour is skipped.
 * Given formula versions (cycle/formulas.ts), the hour is scored by the one in force at its
 * end, the cycle's as-of time, and every manifest must name it.
 */
export function scoreStep(scorer: Scorer | FormulaVersions<Scorer>): CycleStep {
  return {
    name: "score",
    runsWhenClosing: false,
    async run(context) {
      const scoredSeasons: string[] = [];
      let scoreRows = 0;
      const chosen = Array.isArray(scorer)
        ? await formulaAt(context.store.db, scorer as FormulaVersions<Scorer>, context.asOf)
        : undefined;
      for (const season of await seasonsInTurn(context.store, context.asOf, CYCLE_SECONDS)) {
        const rows = await scoreSeason(context, chosen?.impl ?? (scorer as Scorer), season.id, chosen?.id);
        if (rows === undefined) continue;
        scoredSeasons.push(season.id);
        scoreRows += rows;
        context.say(`scored season ${season.id}: ${rows} agents as of ${context.asOf}`);
      }
      return { scoredSeasons, scoreRows };
    },
  };
}

/**
 * Every agent's outcome of one season at the cycle's hour, from the records below `anchoredSize`
 * (nothing stored); undefined when no registration is anchored yet.
 */
export async function seasonOutcomes(
  { store, asOf, say, rows }: Pick<CycleContext, "store" | "asOf" | "say" | "rows">,
  scorer: Scorer,
  seasonId: string,
  anchoredSize: number,
): Promise<readonly ScoreOutcome[] | undefined> {
  const scoring = await openScoring({ store, asOf, say, rows }, scorer, seasonId, anchoredSize);
  return scoring?.finish();
}

/** The season opened by `scorer` with every agent fed to it; undefined when no registration is anchored yet. */
async function openScoring(
  { store, asOf, say, rows }: Pick<CycleContext, "store" | "asOf" | "say" | "rows">,
  scorer: Scorer,
  seasonId: string,
  anchoredSize: number,
): Promise<SeasonScoring | undefined> {
  const header = await loadSeasonHeader(store.db, seasonId, asOf, anchoredSize);
  if (header.agents.length === 0) return undefined;
  // The scorer's folds first: rows not read yet (a restart) start where they leave off.
  await scorer.prepare?.(store, header);
  const inputs = await rows.season(seasonId, anchoredSize, asOf, scorer.rowsStart?.(seasonId));
  say(`inputs of season ${seasonId}: ${inputs.read} records read, ${inputs.held} held`);
  const scoring = scorer.openSeason(header);
  for (const agent of agentInputs(header, inputs.rows)) {
    const whole = agent.records.complete || !(scoring.needsHistory?.(agent) ?? true);
    scoring.scoreAgent(
      whole ? agent : { ...agent, records: await inputs.rows.complete(store, agent.agentId) },
    );
  }
  return scoring;
}

/** Scores one season at the cycle's hour in one transaction; undefined if it was already scored then. */
async function scoreSeason(
  { store, asOf, now, say, rows, anchor }: CycleContext,
  scorer: Scorer,
  seasonId: string,
  formula: string | undefined,
): Promise<number | undefined> {
  const db = store.db;
  if (await hasSeasonRowsAt(db, "scores", seasonId, asOf)) return undefined;
  const scoring = await openScoring({ store, asOf, say, rows }, scorer, seasonId, anchor?.tree_size ?? 0);
  if (scoring === undefined) return undefined;
  const outcomes = scoring.finish();
  const wrong = outcomes.find((o) => formula !== undefined && o.formula !== formula);
  if (wrong) throw new FormulaMismatchError(formula!, wrong.formula);
  return db.transaction().execute(async (trx) => {
    // Re-check under the writer lock: a concurrent cycle may have scored this season meanwhile.
    await store.log.lockForAppend(trx);
    if (await hasSeasonRowsAt(trx, "scores", seasonId, asOf)) return undefined;
    const stored = await appendEngineRecords(
      trx,
      outcomes.map((o) => ({
        kind: "score" as const,
        agentId: o.agentId,
        seasonId,
        body: o.manifest,
        ...(o.sealed ? { text: o.sealed.text, seal: o.sealed.seal } : {}),
      })),
      now,
      { unseen: true },
    );
    // Storing a manifest under a seal the scorer did not give it would break verification.
    outcomes.forEach((o, i) => {
      if (o.sealed && o.sealed.seal !== stored[i]!.seal)
        throw new ManifestSealMismatchError(o.agentId, o.sealed.seal, stored[i]!.seal);
    });
    await insertScores(
      trx,
      outcomes.map((o, i) => ({
        agent_id: o.agentId,
        season_id: seasonId,
        as_of: asOf,
        formula: o.formula,
        score: o.score,
        reason: o.reason,
        rank: o.rank,
        terms: JSON.stringify(o.terms),
        seal: stored[i]!.seal,
        created_at: now,
      })),
    );
    await insertScoreStates(trx, scoring.stateRows?.(now) ?? []);
    return outcomes.length;
  });
}
