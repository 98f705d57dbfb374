import { canonicalJson, sealText, type Hex32 } from "@augur/scorer";
import { sql, type Kysely, type RawBuilder } from "kysely";
import { RECORD_FORMULAS_TABLE, type Database } from "./schema";

/**
 * A record's text is stored whole unless it opens with a formula object (a score manifest's
 * canonical text does: "formula" is its first key). That object is the same 1.9 KB in every
 * manifest of a formula version, so it is stored once in `record_formulas` under the sha256 of its
 * canonical text, and the record keeps the rest: `{` followed by what came after the formula's
 * comma, with `formula_seal` naming the formula. Every read rebuilds the exact text in SQL
 * (`recordBody`); a row with a null `formula_seal` (every row stored before migration 024) is whole.
 */
const FORMULA_HEAD = '{"formula":';

export interface StoredBody {
  /** What the `body` column holds. */
  readonly body: string;
  readonly formula_seal: string | null;
}

export interface FormulaText {
  readonly seal: Hex32;
  readonly text: string;
}

/** The canonical text and seal of each formula object seen, by identity (a season shares one). */
const formulaTexts = new WeakMap<object, FormulaText>();

function formulaOf(body: unknown): FormulaText | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const formula = (body as { formula?: unknown }).formula;
  if (formula === null || typeof formula !== "object") return undefined;
  let known = formulaTexts.get(formula);
  if (!known) {
    const text = canonicalJson(formula);
    known = { seal: sealText(text), text };
    formulaTexts.set(formula, known);
  }
  return known;
}

/**
 * How `text` (the canonical text of `body`) is stored: split when it opens with `body.formula`'s
 * canonical text followed by a comma, else whole. The split is checked against the text itself,
 * so whatever `body` holds, `rebuildBody` of the result is `text`.
 */
export function storedBody(text: string, body: unknown): StoredBody & { formula?: FormulaText } {
  const formula = formulaOf(body);
  if (formula) {
    const head = FORMULA_HEAD.length + formula.text.length;
    if (
      text.startsWith(FORMULA_HEAD) &&
      text.startsWith(formula.text, FORMULA_HEAD.length) &&
      text[head] === ","
    )
      return { body: `{${text.slice(head + 1)}`, formula_seal: formula.seal, formula };
  }
  return { body: text, formula_seal: null };
}

/** The text a stored body stands for (what `recordBody` computes in SQL), given its formula's text. */
export function rebuildBody(stored: StoredBody, formulaText?: string): string {
  if (stored.formula_seal === null) return stored.body;
  if (formulaText === undefined) throw new Error(`formula ${stored.formula_seal} not given`);
  return `${FORMULA_HEAD}${formulaText},${stored.body.slice(1)}`;
}

/**
 * The record's whole canonical text, as an SQL expression over the records table (or its alias),
 * for both backends: the stored body when whole, else the formula's text spliced back in.
 */
export function recordBody(table = "records"): RawBuilder<string> {
  const r = sql.table(table);
  return sql<string>`CASE WHEN ${r}.formula_seal IS NULL THEN ${r}.body ELSE ${sql.lit(FORMULA_HEAD)} || (SELECT f.text FROM ${sql.table(RECORD_FORMULAS_TABLE)} f WHERE f.seal = ${r}.formula_seal) || ',' || substr(${r}.body, 2) END`;
}

/** Stores each formula of `formulas` not stored yet (inside the caller's transaction). */
export async function storeFormulas(db: Kysely<Database>, formulas: Iterable<FormulaText>): Promise<void> {
  const distinct = new Map<string, FormulaText>();
  for (const f of formulas) distinct.set(f.seal, f);
  for (const { seal, text } of distinct.values()) {
    // INSERT … SELECT … WHERE NOT EXISTS: the table's existing-key guard refuses a plain insert
    // of a stored key, and an ON CONFLICT clause would still fire it.
    await sql`INSERT INTO ${sql.table(RECORD_FORMULAS_TABLE)} (seal, text)
      SELECT ${seal}, ${text} WHERE NOT EXISTS
        (SELECT 1 FROM ${sql.table(RECORD_FORMULAS_TABLE)} WHERE seal = ${seal})`.execute(db);
  }
}
