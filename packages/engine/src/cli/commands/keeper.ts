import { parseArgs } from "node:util";
import { KEEPER_HELP, KEEPER_OPTIONS, openKeeper } from "../../keeper/config";
import { anchorCurrentHead } from "../../keeper/anchor-head";
import { openStore } from "../../store/open";
import type { Command } from "../command";
import { integerOption, storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";
import { repeatUntilSignalled } from "../repeat";

export const command: Command = {
  name: "keeper",
  summary: "anchor the Merkle log's head in AnchorRegistry (one head per transaction)",
  usage: `Usage: augur keeper [--once] --rpc <url> --registry <address> [options]

Each pass first follows the registry's Anchored events (from --start-block, with
the confirmations; a reorganised block's events are rolled back), then posts the
log's current head to AnchorRegistry with a consistency proof from the
previous posted head, waits for the confirmations and stores the anchor. It asks
the chain first, so a head already posted is recorded, never posted twice. Every
step (simulation, signed transaction, broadcast, receipt, fee-bump replacement)
is journalled in keeper_attempts before the next, so a killed keeper resumes at
the same nonce: no duplicate anchor, no nonce gap.

Without --once it checks the head every --interval seconds until SIGINT/SIGTERM.
The hourly cycle (augur cycle) runs the same keeper when given the same flags.

Options:
  --once                 one pass, then exit (0 anchored or nothing to do, 3 pending)
  --interval <s>         seconds between passes (default 60)

${KEEPER_HELP}

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
          once: { type: "boolean" },
          interval: { type: "string" },
        },
      }),
    );
    const interval = integerOption("--interval", values.interval, 60, 1, 86_400);
    const say = (line: string) => io.stdout.write(`augur keeper: ${line}\n`);
    const store = await openStore(storeFrom(values, process.env));
    try {
      const handle = await openKeeper(values, process.env, store, say);
      say(
        `keeper ${handle.sender} → registry ${handle.registry.address} on chain ${handle.registry.chainId}`,
      );
      const now = () => Math.floor(Date.now() / 1000);
      const pass = async () => {
        const indexed = await handle.indexer.poll();
        say(
          `indexed to block ${indexed.cursor}: ${indexed.stored} new Anchored events, ` +
            `${indexed.promoted} anchors recorded${indexed.rolledBack ? `, ${indexed.rolledBack} rolled back (reorg)` : ""}`,
        );
        const outcome = await anchorCurrentHead(store, handle.keeper, now);
        switch (outcome.kind) {
          case "empty":
            say("log is empty: nothing to anchor");
            break;
          case "current":
            say(`head ${outcome.treeSize} is already anchored`);
            break;
          case "pending":
            say(`head ${outcome.treeSize}: posted, waiting for the confirmations (next pass finishes it)`);
            break;
          case "anchored":
            say(
              `head ${outcome.receipt.treeSize} anchored at index ${outcome.receipt.anchorIndex}, ` +
                `tx ${outcome.receipt.txHash}, block ${outcome.receipt.blockNumber}`,
            );
        }
        return outcome.kind;
      };
      try {
        if (values.once) return (await pass()) === "pending" ? 3 : 0;
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
