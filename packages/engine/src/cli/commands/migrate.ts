import { parseArgs } from "node:util";
import { migrateToLatest, openStore } from "../../store/open";
import type { Command } from "../command";
import { storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";

export const command: Command = {
  name: "migrate",
  summary: "create or upgrade the store's schema (also done by serve on start)",
  usage: `Usage: augur migrate [--data-dir <dir>]

Applies every pending schema migration, in order, and prints what it applied.
Running it again applies nothing.

${STORE_HELP}
`,
  async run(argv, io) {
    const { values } = parse(() => parseArgs({ args: argv, options: STORE_OPTIONS, strict: true }));
    const store = await openStore(storeFrom(values, process.env), { migrate: false });
    try {
      const applied = await migrateToLatest(store);
      io.stdout.write(
        applied.length === 0
          ? `schema is up to date (${store.description})\n`
          : `applied ${applied.join(", ")} to ${store.description}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
