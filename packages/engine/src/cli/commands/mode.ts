import { dayOf } from "../../modes/days";
import { describeMode } from "../../modes/describe";
import { writeNotice } from "../../modes/notices";
import { modeNoticeBody } from "../../modes/records";
import { allNotices, currentMode, modeHistory } from "../../modes/state";
import { NOTICE_TARGETS, OPERATOR_NOTICE_DAYS } from "../../modes/timeline";
import { openStore } from "../../store/open";
import { type Command, UsageError } from "../command";
import { storeFrom } from "../../config/env";
import { actionOf, parseStoreCommand, STORE_HELP } from "../options";
import { FINAL_USAGE, runFinal } from "../final-notice";

export const command: Command = {
  name: "mode",
  summary: "show the mode (active, maintenance, wind-down, archived) or give an operator notice",
  usage: `Usage: augur mode show [--json] [--data-dir <dir>]
       augur mode notice --to <mode> --reason <text> [--data-dir <dir>]
       augur mode final --words <text> [--rpc <url>] [--registry <address>]
                        [--keystore <file>] [--data-dir <dir>]

show     prints the mode in force, its cause, every mode change and every notice
         (--json: the same as GET /api/v1/mode).
notice   writes a sealed operator notice (a leaf of the log, anchored with the
         next head). It takes effect ${OPERATOR_NOTICE_DAYS} days after today (UTC), never
         sooner; the cycle then records the mode change.
         --to ${NOTICE_TARGETS.join("|")}: maintenance and wind-down at the operator's
         discretion; active lifts an operator's maintenance (a volume
         maintenance ends only when volume recovers). Wind-down is final:
         no notice is taken once the system winds down.
         --reason: one line, published with the notice.
${FINAL_USAGE}

Exit codes: 0 done, 1 refused (one line saying why), 2 bad usage.

${STORE_HELP}
`,
  async run(argv, io) {
    const { values, positionals } = parseStoreCommand(argv, {
      to: { type: "string" },
      reason: { type: "string" },
      json: { type: "boolean" },
      words: { type: "string" },
      rpc: { type: "string" },
      registry: { type: "string" },
      keystore: { type: "string" },
    });
    const action = actionOf(positionals, ["show", "notice", "final"]);
    if (action === "final") return runFinal(values, io);
    if (action === "notice") {
      if (values.to === undefined) throw new UsageError(`--to is required (${NOTICE_TARGETS.join(", ")})`);
      if (values.reason === undefined) throw new UsageError("--reason is required");
    }
    const now = Math.floor(Date.now() / 1000);
    // Validate before opening the store: a bad notice never touches it.
    const body = action === "notice" ? modeNoticeBody(values.to!, values.reason, dayOf(now)) : undefined;
    // `show` only reads: against a missing data dir it fails instead of creating a store.
    const store = await openStore(storeFrom(values, process.env), { mustExist: action === "show" });
    try {
      if (body) {
        const written = await writeNotice(store, "notice", body.noticed, body, now);
        io.stdout.write(
          `notice ${written.seal} written (leaf ${written.leafIndex}): ${body.to} from ${body.effective}, ` +
            `${OPERATOR_NOTICE_DAYS} days after ${body.noticed}\n`,
        );
        return 0;
      }
      const state = await currentMode(store.db);
      const history = await modeHistory(store.db);
      const notices = await allNotices(store.db);
      if (values.json) {
        io.stdout.write(`${JSON.stringify({ ...state, history, notices })}\n`);
        return 0;
      }
      const today = dayOf(now);
      const lines = [
        `mode: ${describeMode(state)}`,
        ...history.map((m) => `  ${m.since}  ${m.mode.padEnd(11)} declared ${m.declared}  ${m.seal}`),
        ...notices.map(
          (n) =>
            `  notice ${n.notice === "mode" ? `→ ${n.to}` : n.formula} from ${n.effective}` +
            `${n.effective > today ? " (pending)" : ""}: ${n.reason}  ${n.seal}`,
        ),
      ];
      io.stdout.write(`${lines.join("\n")}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
