import { dayOf } from "../../modes/days";
import { writeNotice } from "../../modes/notices";
import { methodologyNoticeBody } from "../../modes/records";
import { METHODOLOGY_NOTICE_DAYS } from "../../modes/timeline";
import { openStore } from "../../store/open";
import { type Command, UsageError } from "../command";
import { storeFrom } from "../../config/env";
import { actionOf, parseStoreCommand, STORE_HELP } from "../options";

export const command: Command = {
  name: "methodology",
  summary: `announce a new formula version (at least ${METHODOLOGY_NOTICE_DAYS} days ahead, applied only forward)`,
  usage: `Usage: augur methodology announce --formula <name/vN> --effective <YYYY-MM-DD> [--reason <text>]
                                [--data-dir <dir>]

Writes a sealed methodology notice (a leaf of the log, anchored with the next
head): formula <name/vN> (e.g. augur-score/v2) applies to scores from
--effective (UTC date) on. It is refused unless --effective is at least
${METHODOLOGY_NOTICE_DAYS} days after today (UTC), and once the system winds down. Scores
already sealed never change: each names the formula that computed it.

The notice gates the code: a build carrying <name/vN> runs it only for rows as of
00:00 UTC of --effective on (the previous version until then), and augur cycle,
augur serve and npm start refuse to start a build carrying a version that no
notice sealed ${METHODOLOGY_NOTICE_DAYS} days ahead announces (docs/engine.md, "Formula versions").

Exit codes: 0 written, 1 refused (one line saying why), 2 bad usage.

${STORE_HELP}
`,
  async run(argv, io) {
    const { values, positionals } = parseStoreCommand(argv, {
      formula: { type: "string" },
      effective: { type: "string" },
      reason: { type: "string" },
    });
    actionOf(positionals, ["announce"]);
    if (values.formula === undefined) throw new UsageError("--formula is required (e.g. augur-score/v2)");
    if (values.effective === undefined) throw new UsageError("--effective is required (YYYY-MM-DD)");
    const now = Math.floor(Date.now() / 1000);
    const body = methodologyNoticeBody(values.formula, values.effective, dayOf(now), values.reason);
    const store = await openStore(storeFrom(values, process.env));
    try {
      const written = await writeNotice(store, "methodology", body.effective, body, now);
      io.stdout.write(
        `methodology notice ${written.seal} written (leaf ${written.leafIndex}): ${body.formula} applies from ` +
          `${body.effective}, announced ${body.announced}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
