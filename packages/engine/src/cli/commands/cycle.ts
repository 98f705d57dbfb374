import { parseArgs } from "node:util";
import { AugurScorer } from "../../cycle/augur-scorer";
import { CYCLE_SECONDS, runCycle, type CycleReport } from "../../cycle/run";
import type { StewardshipDaysSource } from "../../modes/evaluate";
import {
  KEEPER_HELP,
  KEEPER_OPTIONS,
  keeperConfigured,
  openKeeper,
  type KeeperHandle,
} from "../../keeper/config";
import { openStore, type Store } from "../../store/open";
import type { Command } from "../command";
import { parse, STORE_HELP, STORE_OPTIONS, storeFrom } from "../options";

/**
 * One cycle as `augur cycle` runs it: the indexer first (so anchors mined since the last run are
 * recorded), then the cycle proper with the keeper and the augur-score/v1 scorer. `npm start`
 * calls it too, with its simulated clock as `now`.
 */
export async function cycleOnce(options: {
  readonly store: Store;
  readonly chain?: Pick<KeeperHandle, "keeper" | "indexer">;
  readonly now: () => number;
  readonly progress: (line: string) => void;
  /** The sealed daily stewardship records; absent: none yet, only operator notices move the mode. */
  readonly stewardshipDays?: StewardshipDaysSource;
}): Promise<CycleReport> {
  const { store, chain, now, progress } = options;
  if (chain) {
    const indexed = await chain.indexer.poll();
    progress(`indexer: block ${indexed.cursor}, ${indexed.promoted} anchors recorded`);
  }
  const report = await runCycle({
    store,
    ...(chain ? { keeper: chain.keeper } : {}),
    scorer: new AugurScorer(),
    risk: true,
    modes: options.stewardshipDays ? { days: options.stewardshipDays } : {},
    now,
    progress,
  });
  progress(
    `done as of ${new Date(report.asOf * 1000).toISOString()}: head ${report.head.treeSize}, ` +
      `${report.scoreRows} score rows in ${report.scoredSeasons.length} seasons, ${report.riskRows} risk rows`,
  );
  return report;
}

export const command: Command = {
  name: "cycle",
  summary: "run the hourly cycle: log head → keeper anchors it → score → seal manifests",
  usage: `Usage: augur cycle [--once] [--data-dir <dir>]

One cycle reads the Merkle log head, has the keeper anchor it, scores every open
season from anchored inputs and appends the sealed score manifests to the log
(they join the next anchor). Every step is idempotent: a rerun in the same hour
adds no second anchor and no second score row.

Each cycle also evaluates the mode (active, maintenance, wind-down, archived)
from the sealed stewardship days and the operator notices, and records a change
(see augur mode --help); in wind-down it scores nothing, publishes the final
anchor and records archived.

Without --once it runs at the start of every hour until SIGINT or SIGTERM.
Scores are augur-score/v1 (packages/scorer). With --rpc and --registry the
keeper anchors each head (see augur keeper --help) and the registry's Anchored
events are indexed first; without them nothing gets anchored, so scores see no
anchored inputs.

Options:
  --once               run one cycle and exit

${KEEPER_HELP}

${STORE_HELP}
`,
  async run(argv, io) {
    const { values } = parse(() =>
      parseArgs({
        args: argv,
        strict: true,
        options: { ...STORE_OPTIONS, ...KEEPER_OPTIONS, once: { type: "boolean" } },
      }),
    );
    const store = await openStore(storeFrom(values, process.env));
    const progress = (line: string) => io.stdout.write(`augur cycle: ${line}\n`);
    const chain = keeperConfigured(values, process.env)
      ? await openKeeper(values, process.env, store, (line) => progress(`keeper: ${line}`)).catch(
          async (error: unknown) => {
            await store.close();
            throw error;
          },
        )
      : undefined;
    const once = async () => {
      await cycleOnce({ store, chain, now: () => Math.floor(Date.now() / 1000), progress });
    };
    try {
      if (values.once) {
        await once();
        return 0;
      }
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let wake: () => void = () => undefined;
      const stop = () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        wake();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      try {
        while (!stopped) {
          await once();
          const wait = (CYCLE_SECONDS - (Math.floor(Date.now() / 1000) % CYCLE_SECONDS)) * 1000;
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, wait);
          });
        }
      } finally {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
      progress("stopped");
      return 0;
    } finally {
      chain?.close();
      await store.close();
    }
  },
};
