import { parseArgs } from "node:util";
import { cycleScorer, SCORING_MODES, type ScoringMode } from "../../cycle/incremental-scorer";
import { CYCLE_SECONDS, runCycle, type CycleReport } from "../../cycle/run";
import { assertBuildFormulasNoticed, RISK_FORMULAS, scoreFormulas } from "../../cycle/formulas";
import {
  anchorStep,
  closesStep,
  measureStep,
  modesStep,
  refereeStep,
  riskStep,
  scoreStep,
  settleStep,
  stewardshipStep,
} from "../../cycle/steps";
import { SETTLER_HELP, SETTLER_OPTIONS } from "../../settler/config";
import type { StewardshipDaysSource } from "../../modes/evaluate";
import type { UnvestedBurner } from "../../modes/vesting";
import {
  openVestingBurner,
  VESTING_HELP,
  VESTING_OPTIONS,
  vestingConfigured,
} from "../../modes/vesting-config";
import {
  KEEPER_HELP,
  KEEPER_OPTIONS,
  keeperConfigured,
  openKeeper,
  type KeeperHandle,
} from "../../keeper/config";
import { openStore, type Store } from "../../store/open";
import type { StewardshipSource } from "../../stewardship/days";
import { STEWARDSHIP_HELP, STEWARDSHIP_OPTIONS, stewardshipConfigured } from "../../stewardship/config";
import { openStewardship, type StewardshipHandle } from "../../stewardship/open";
import { type Command, UsageError } from "../command";
import { storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";
import { repeatUntilSignalled } from "../repeat";

/**
 * One cycle as `augur cycle` runs it: the indexer first (so anchors mined since the last run are
 * recorded), then the cycle proper with the keeper and the augur-score/v1 scorer. `npm start`
 * calls it too, with its simulated clock as `now`.
 */
export async function cycleOnce(options: {
  readonly store: Store;
  readonly chain?: Pick<KeeperHandle, "keeper" | "indexer" | "closes" | "settler" | "measure">;
  /** The stewardship monitor, when configured: a sealed record for each closed UTC day. */
  readonly stewardship?: StewardshipSource;
  readonly now: () => number;
  readonly progress: (line: string) => void;
  /** Where the mode step reads the sealed stewardship days; absent: the store's own records. */
  readonly stewardshipDays?: StewardshipDaysSource;
  /** How scores are computed (`--scoring`); both write the same manifests. Default: incremental. */
  readonly scoring?: ScoringMode;
  /** The operator allocation, when configured: the wind-down burns its unvested part. */
  readonly burner?: UnvestedBurner;
}): Promise<CycleReport> {
  const { store, chain, stewardship, now, progress } = options;
  if (chain) {
    const indexed = await chain.indexer.poll();
    progress(`indexer: block ${indexed.cursor}, ${indexed.promoted} anchors recorded`);
  }
  const closes = chain?.closes;
  const report = await runCycle({
    store,
    steps: [
      ...(closes ? [closesStep(closes)] : []),
      ...(chain?.measure ? [measureStep(chain.measure.chain, chain.measure.source)] : []),
      anchorStep(chain?.keeper),
      ...(chain?.settler ? [settleStep(chain.settler)] : []),
      scoreStep(scoreFormulas(cycleScorer(store, options.scoring))),
      riskStep(RISK_FORMULAS, options.scoring),
      // The referee's board needs the closes: with them, the cycle (not the API) runs the referee.
      ...(closes ? [refereeStep()] : []),
      ...(stewardship ? [stewardshipStep(stewardship)] : []),
      modesStep(options.stewardshipDays, options.burner),
    ],
    now,
    progress,
  });
  progress(
    `done as of ${new Date(report.asOf * 1000).toISOString()}: head ${report.head.treeSize}, ` +
      `${report.scoreRows} score rows in ${report.scoredSeasons.length} seasons, ${report.riskRows} risk rows, ${report.closes} closes` +
      (report.settle ? `, ${report.settle.settled} calls settled, ${report.settle.expired} expired` : "") +
      (chain?.closes ? `, ${report.refereeBoards} referee boards` : "") +
      (stewardship ? `, ${report.stewardshipDays.length} stewardship days` : "") +
      (report.sealedAnchored ? `; anchored through ${report.sealedAnchored.treeSize}` : ""),
  );
  return report;
}

export const command: Command = {
  name: "cycle",
  summary: "run the hourly cycle: log head → keeper anchors it → score → seal manifests → anchor them",
  usage: `Usage: augur cycle [--once] [--data-dir <dir>]

One cycle reads the Merkle log head, has the keeper anchor it, scores every open
season from anchored inputs and appends the sealed score manifests to the log;
at the end of the pass the keeper anchors the head again, so every row the cycle
sealed is verifiable (augur verify) when it returns. Every step is idempotent: a
rerun in the same hour adds no second anchor and no second score row.

With a PriceOracle (--oracle, or the oracle of --ledger) each cycle first seals
the hour's close of every asset the oracle prices, priceAt(asset, hour), into the
referee's hourly closes (docs/referee.md); hours missed in the last day are
filled in from the oracle's history where its buffer still covers them. After
scoring, it then runs the referee of every open season (and of seasons closed
less than 48 hours ago) on the anchored closes and calls, and seals the board
the API serves (GET /api/v1/referee/:epoch); an unchanged input adds none.

With --ledger, each cycle then settles every revealed call whose closesAt has
passed and expires every commit past its reveal timeout, from the keeper's
account (see augur settle --help), before it scores.

Each cycle also evaluates the mode (active, maintenance, wind-down, archived)
from the sealed stewardship days and the operator notices, and records a change
(see augur mode --help); in wind-down it scores nothing, burns the operator
allocation's unvested part (with --vesting), publishes the final anchor and
records archived.

Without --once it runs at the start of every hour until SIGINT or SIGTERM.
Scores are augur-score/v1 (packages/scorer). Each formula (score, risk, referee,
stewardship) is the version in force at the hour's end; a build carrying a
version no methodology notice announced 14 days ahead is refused at start
(exit 1; see augur methodology --help). With --rpc and --registry the
keeper anchors each head (see augur keeper --help) and the registry's Anchored
events are indexed first; without them nothing gets anchored, so scores see no
anchored inputs. With a stewardship token configured, each cycle also follows the
token's transfers and its pools' swaps and seals one stewardship record for every
UTC day closed since the last (docs/stewardship.md).

Options:
  --once               run one cycle and exit
  --scoring <mode>     incremental (default): each agent's season (score and risk
                       book) is folded hour by hour, its state stored beside the rows;
                       from-scratch: every hour rescores each season from its first
                       record (the reference augur verify runs). Both write
                       byte-identical manifests and risk rows.

${KEEPER_HELP}

${SETTLER_HELP}

${STEWARDSHIP_HELP}

${VESTING_HELP}

${STORE_HELP}
`,
  async run(argv, io) {
    const { values } = parse(() =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...STORE_OPTIONS,
          ...KEEPER_OPTIONS,
          ...SETTLER_OPTIONS,
          ...STEWARDSHIP_OPTIONS,
          ...VESTING_OPTIONS,
          once: { type: "boolean" },
          scoring: { type: "string", default: "incremental" },
        },
      }),
    );
    const scoring = values.scoring as ScoringMode;
    if (!SCORING_MODES.includes(scoring))
      throw new UsageError(`--scoring must be one of ${SCORING_MODES.join(", ")} (got "${values.scoring}")`);
    const store = await openStore(storeFrom(values, process.env));
    await assertBuildFormulasNoticed(store.db).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
    const progress = (line: string) => io.stdout.write(`augur cycle: ${line}\n`);
    const chain = keeperConfigured(values, process.env)
      ? await openKeeper(values, process.env, store, (line) => progress(`keeper: ${line}`)).catch(
          async (error: unknown) => {
            await store.close();
            throw error;
          },
        )
      : undefined;
    let steward: StewardshipHandle | undefined;
    let vesting: Awaited<ReturnType<typeof openVestingBurner>> | undefined;
    try {
      if (stewardshipConfigured(values, process.env))
        steward = await openStewardship(values, process.env, store);
      if (vestingConfigured(values, process.env)) vesting = await openVestingBurner(values, process.env);
    } catch (error) {
      chain?.close();
      steward?.close();
      await store.close();
      throw error;
    }
    const once = async () => {
      await cycleOnce({
        store,
        chain,
        ...(steward ? { stewardship: steward.source } : {}),
        ...(vesting ? { burner: vesting.burner } : {}),
        now: () => Math.floor(Date.now() / 1000),
        progress,
        scoring,
      });
    };
    try {
      if (values.once) {
        await once();
        return 0;
      }
      // Each run waits until the start of the next hour, whenever the previous one finished.
      await repeatUntilSignalled(
        once,
        () => (CYCLE_SECONDS - (Math.floor(Date.now() / 1000) % CYCLE_SECONDS)) * 1000,
      );
      progress("stopped");
      return 0;
    } finally {
      chain?.close();
      steward?.close();
      vesting?.close();
      await store.close();
    }
  },
};
