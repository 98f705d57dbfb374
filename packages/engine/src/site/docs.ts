import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The published methodology pages, in the order the site shows them. */
export const METHODOLOGY_DOCS = [
  { id: "augur", file: "augur-score-v1.md", title: "Augur score (augur-score/v1)" },
  { id: "referee", file: "referee.md", title: "Monkey-percentile referee (referee/v1)" },
  { id: "risk", file: "risk-score.md", title: "Vault risk score (risk-score/v1)" },
  { id: "stewardship", file: "stewardship.md", title: "Stewardship monitor (stewardship/v1)" },
  { id: "calls", file: "call-ledger.md", title: "CallLedger: track record and consensus" },
  { id: "merkle", file: "merkle-log.md", title: "Seals and the Merkle log" },
] as const;

/** The repository's `docs/` folder (this file lives in packages/engine/src/site). */
export const DOCS_DIR = join(__dirname, "..", "..", "..", "..", "docs");

/** Reads one methodology page; undefined when the file is not in this checkout. */
export function readDoc(file: string, dir = DOCS_DIR): string | undefined {
  try {
    return readFileSync(join(dir, file), "utf8");
  } catch {
    return undefined;
  }
}
