import { storeFrom } from "../../config/env";
import { eraseField } from "../../erasure/erase";
import { openStore } from "../../store/open";
import { type Command, UsageError } from "../command";
import { parseStoreCommand, STORE_HELP } from "../options";

export const command: Command = {
  name: "erase",
  summary: "honour a personal-data erasure request: erase one field's text, keeping every seal and proof",
  usage: `Usage: augur erase --seal <seal> --field <name> [--reason <text>] [--data-dir <dir>]

Erases the text (and its salt) of one erasable field of a sealed record, e.g.
the note of a DecisionV3 decision. The sealed body holds only the salted hash
sha256(salt ‖ text), so the seal, the Merkle log, every anchor and every proof
stay valid; the API and the site show the field as "erased on request" from
then on, and the engine never takes the text back. The erasure is logged
(seal, field, date and --reason, one line: give the ground, e.g. "GDPR art. 17",
never who asked). A field erased before its text was posted is closed all the same.

Exit codes: 0 erased; 1 refused (one line: unknown seal, a record with no
such erasable field, a field already erased); 2 bad usage.

${STORE_HELP}
`,
  async run(argv, io) {
    const { values, positionals } = parseStoreCommand(argv, {
      seal: { type: "string" },
      field: { type: "string" },
      reason: { type: "string" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.seal === undefined) throw new UsageError("--seal is required (0x + 64 hex digits)");
    if (values.field === undefined) throw new UsageError("--field is required (e.g. note)");
    const store = await openStore(storeFrom(values, process.env));
    try {
      const now = Math.floor(Date.now() / 1000);
      const erased = await eraseField(store, {
        seal: values.seal,
        field: values.field,
        reason: values.reason,
        now,
      });
      const what = erased.textDeleted
        ? "text and salt deleted"
        : "no text had been posted; the field is closed";
      io.stdout.write(
        `erased the ${erased.field} of record ${erased.seal}: ${what}; seal and proofs unchanged\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
