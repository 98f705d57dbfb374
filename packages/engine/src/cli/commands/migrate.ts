import { parseArgs } from "node:util";
import { migrateToLatest, openStore } from "../../store/open";
import type { Command } from "../command";
import { storeFrom, UsageError } from "../../config/env";
import { grantServingRole } from "../../store/roles";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";

export const command: Command = {
  name: "migrate",
  summary: "create or upgrade the store's schema (also done by serve on start)",
  usage: `Usage: augur migrate [--data-dir <dir>] [--serving-role <role>]

Applies every pending schema migration, in order, and prints what it applied.
Running it again applies nothing.

Options:
  --serving-role <role>  PostgreSQL: after migrating (as the owner), grant this role what the
                         serving process needs and nothing that could lift append-only (env
                         AUGUR_SERVING_ROLE; see docs/engine.md, "PostgreSQL roles")

${STORE_HELP}
`,
  async run(argv, io) {
    const { values } = parse(() =>
      parseArgs({
        args: argv,
        options: { ...STORE_OPTIONS, "serving-role": { type: "string" } },
        strict: true,
      }),
    );
    const role = (values["serving-role"] ?? process.env.AUGUR_SERVING_ROLE ?? "").trim();
    const location = storeFrom(values, process.env);
    if (role && location.kind !== "postgres")
      throw new UsageError("--serving-role needs a PostgreSQL DATABASE_URL");
    if (role && !/^[a-z_][a-z0-9_]{0,62}$/.test(role)) {
      throw new UsageError(`--serving-role must be a role name of [a-z0-9_], not '${role}'`);
    }
    const store = await openStore(location, { migrate: false });
    try {
      const applied = await migrateToLatest(store);
      io.stdout.write(
        applied.length === 0
          ? `schema is up to date (${store.description})\n`
          : `applied ${applied.join(", ")} to ${store.description}\n`,
      );
      if (role) {
        await grantServingRole(store.db, role);
        io.stdout.write(`granted ${role} the serving role's rights\n`);
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};
