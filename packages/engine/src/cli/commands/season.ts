import { ID_PATTERN } from "@augur/records";
import { openStore } from "../../store/open";
import { closeSeason, findSeason, insertSeason } from "../../store/queries/seasons";
import { SEASON_INPUTS, type SeasonInputs } from "../../store/schema";
import { AugurError } from "@augur/scorer";
import { assertMaySpend } from "../../modes/guard";
import { type Command, UsageError } from "../command";
import { storeFrom } from "../../config/env";
import { actionOf, parseStoreCommand, STORE_HELP } from "../options";

/** An ISO 8601 time or unix seconds, as unix seconds. */
function time(flag: string, text: string | undefined): number {
  if (text === undefined) throw new UsageError(`${flag} is required`);
  if (/^[0-9]{1,15}$/.test(text)) return Number(text);
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(ms)) {
    throw new UsageError(`${flag} must be unix seconds or an ISO 8601 time, not '${text}'`);
  }
  return Math.floor(ms / 1000);
}

export const command: Command = {
  name: "season",
  summary: "add, close or show a season (records are taken only inside an open season)",
  usage: `Usage: augur season add --id <id> --starts <time> --ends <time> [--name <text>] [--inputs measured|declared]
       augur season close --id <id>
       augur season show --id <id>

A season takes records from agents registered in it until it ends or is closed.
Times are unix seconds or ISO 8601 (e.g. 2026-12-01T00:00:00Z). Ids are lowercase
slugs ([a-z0-9][a-z0-9_-]*, at most 64 characters). Adding a season is new spend
(house agents and their funding): it is refused in maintenance mode and once the
system winds down (see augur mode show).
--inputs measured (the default) has the engine measure every agent's snapshots
and trades from its bound wallet, and refuses those records from agents;
declared takes them signed by the agents, as seasons did before.

${STORE_HELP}
`,
  async run(argv, io) {
    const { values, positionals } = parseStoreCommand(argv, {
      id: { type: "string" },
      name: { type: "string" },
      starts: { type: "string" },
      ends: { type: "string" },
      inputs: { type: "string" },
    });
    const action = actionOf(positionals, ["add", "close", "show"]);
    const id = values.id;
    if (!id || !new RegExp(ID_PATTERN).test(id)) throw new UsageError(`--id must match ${ID_PATTERN}`);
    const starts = action === "add" ? time("--starts", values.starts) : 0;
    const ends = action === "add" ? time("--ends", values.ends) : 0;
    if (action === "add" && ends <= starts) throw new UsageError("--ends must be after --starts");
    const inputs = values.inputs ?? "measured";
    if (!(SEASON_INPUTS as readonly string[]).includes(inputs))
      throw new UsageError(`--inputs must be one of ${SEASON_INPUTS.join(", ")}`);

    // `show` only reads: against a missing data dir it fails instead of creating a store.
    const store = await openStore(storeFrom(values, process.env), { mustExist: action === "show" });
    try {
      const now = Math.floor(Date.now() / 1000);
      const existing = await findSeason(store.db, id);
      if (action === "add") {
        if (existing) throw new AugurError("SEASON_EXISTS", `season ${id} already exists`, { id });
        // A season commits house agents and their funding: new spend, refused outside active mode.
        await assertMaySpend(store.db, `opening season ${id}`);
        await insertSeason(store.db, {
          id,
          name: values.name ?? id,
          starts_at: starts,
          ends_at: ends,
          closed_at: null,
          created_at: now,
          inputs: inputs as SeasonInputs,
        });
        io.stdout.write(
          `season ${id} added: ${new Date(starts * 1000).toISOString()} to ${new Date(ends * 1000).toISOString()}\n`,
        );
        return 0;
      }
      if (!existing) throw new AugurError("UNKNOWN_SEASON", `season ${id} does not exist`, { id });
      if (action === "close") {
        await closeSeason(store.db, id, now);
        io.stdout.write(`season ${id} closed\n`);
        return 0;
      }
      io.stdout.write(`${JSON.stringify(existing)}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
