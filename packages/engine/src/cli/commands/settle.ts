import { parseArgs } from "node:util";
import { KEEPER_HELP, KEEPER_OPTIONS, openKeeper } from "../../keeper/config";
import { KeeperConfigError } from "../../keeper/errors";
import { SETTLER_HELP, SETTLER_OPTIONS } from "../../settler/config";
import { openStore } from "../../store/open";
import type { Command } from "../command";
import { integerOption, storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";
import { repeatUntilSignalled } from "../repeat";

export const command: Command = {
  name: "settle",
  summary: "settle every call past closesAt and expire every commit past its reveal timeout",
  usage: `Usage: augur settle [--once] --rpc <url> --registry <address> --ledger <address> [options]

Each pass first follows the ledger's events (Committed, Revealed, Settled,
Expired; from --start-block, with the confirmations), then settles every
revealed call whose closesAt has passed (the ledger prices it at closesAt: hit,
miss or void) and expires every commit whose reveal timeout has passed (a miss),
the longest-due first, at most --settle-max per pass. It sends from the
keeper's account under the keeper's journal: each call is simulated first (a
call the agent already settled is skipped), one transaction at a time, fee-bump
replacement, a killed run resumes at the same nonce. A call that fails is
logged and tried again next pass; the others go on. The hourly cycle (augur
cycle) runs the same settler when given --ledger.

Without --once it runs every --interval seconds until SIGINT/SIGTERM.

Options:
  --once                 one pass, then exit (0 done, 3 a transaction still pending,
                         1 some call failed)
  --interval <s>         seconds between passes (default 60)

${KEEPER_HELP}

${SETTLER_HELP}

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
          once: { type: "boolean" },
          interval: { type: "string" },
        },
      }),
    );
    const interval = integerOption("--interval", values.interval, 60, 1, 86_400);
    if (!(values.ledger ?? process.env.AUGUR_LEDGER))
      throw new KeeperConfigError("augur settle needs --ledger");
    const say = (line: string) => io.stdout.write(`augur settle: ${line}\n`);
    const store = await openStore(storeFrom(values, process.env));
    try {
      const handle = await openKeeper(values, process.env, store, say);
      const settler = handle.settler!;
      say(`settler ${handle.sender} → ledger ${values.ledger ?? process.env.AUGUR_LEDGER}`);
      const pass = async () => {
        const indexed = await handle.indexer.poll();
        say(`indexed to block ${indexed.cursor}, ${indexed.promoted} records sealed`);
        const report = await settler.pass();
        say(
          `${report.due} due: ${report.settled} settled, ${report.expired} expired, ` +
            `${report.skipped} already resolved, ${report.failed.length} failed, gas ${report.gasUsed}` +
            (report.pending ? "; a transaction is pending (the next pass finishes it)" : ""),
        );
        return report;
      };
      try {
        if (values.once) {
          const report = await pass();
          return report.pending ? 3 : report.failed.length > 0 ? 1 : 0;
        }
        await repeatUntilSignalled(pass, interval * 1000);
        say("stopped");
        return 0;
      } finally {
        handle.close();
      }
    } finally {
      await store.close();
    }
  },
};
