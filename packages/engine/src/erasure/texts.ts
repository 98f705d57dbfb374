import { erasableHash, ERASABLE_FIELDS, sealedTextHash, ZERO_HASH } from "@augur/records";
import { InvalidInputError } from "@augur/scorer";
import type { Kysely } from "kysely";
import type { Store } from "../store/open";
import type { Database } from "../store/schema";
import { erasableTextsOf, erasuresOf, insertErasableText } from "../store/queries/erasure";
import { findRecord, type RecordRow } from "../store/queries/records";
import { ErasureRefusedError } from "./errors";

/** Longest erasable text, in characters (a decision's note was 280 when it was sealed). */
export const ERASABLE_TEXT_MAX = 280;

/** A sealed record's kind (its signed type) and message, as the erasable fields are read from it. */
export interface SealedFields {
  readonly seal: string;
  readonly kind: string;
  readonly message: Readonly<Record<string, unknown>>;
}

/** A stored record's kind and message (its body is `{ format, type, domain, message }`). */
export function fieldsOf(row: Pick<RecordRow, "seal" | "kind" | "body">): SealedFields {
  const body = JSON.parse(row.body) as { type?: string; message?: Record<string, unknown> };
  return { seal: row.seal, kind: body.type ?? row.kind, message: body.message ?? {} };
}

/** The sealed record with seal `seal`, or 404 UNKNOWN_SEAL. */
export async function sealedFields(db: Kysely<Database>, seal: string): Promise<SealedFields> {
  const row = await findRecord(db, seal);
  if (!row) throw new ErasureRefusedError(404, "UNKNOWN_SEAL", `no record has seal ${seal}`, { seal });
  return fieldsOf(row);
}

/** The hash the record seals for `field`, or 404 UNKNOWN_FIELD naming the fields it has. */
export function sealedHash(record: SealedFields, field: string): string {
  const hash = sealedTextHash(record.kind, record.message, field);
  if (hash !== undefined) return hash;
  const fields = ERASABLE_FIELDS[record.kind] ?? [];
  const has = fields.length === 0 ? "has no erasable field" : `has erasable fields ${fields.join(", ")}`;
  throw new ErasureRefusedError(
    404,
    "UNKNOWN_FIELD",
    `record ${record.seal} (${record.kind}) ${has}, not '${field}'`,
    { seal: record.seal, field },
  );
}

/** One erasable field as served beside its record: the text and salt, or why there is none. */
export interface TextView {
  readonly field: string;
  /** The `<field>Hash` the sealed body carries. */
  readonly hash: string;
  /** `published`: text and salt below; `erased`: erased on request; `pending`: not posted yet; `none`: no text sealed. */
  readonly status: "published" | "erased" | "pending" | "none";
  readonly text: string | null;
  readonly salt: string | null;
  /** Unix seconds of the erasure, when erased. */
  readonly erasedAt: number | null;
}

/** Every erasable field of a record, in the order its kind lists them (empty for other kinds). */
export async function textViews(db: Kysely<Database>, record: SealedFields): Promise<TextView[]> {
  const fields = ERASABLE_FIELDS[record.kind] ?? [];
  if (fields.length === 0) return [];
  const [texts, erasures] = await Promise.all([
    erasableTextsOf(db, record.seal),
    erasuresOf(db, record.seal),
  ]);
  return fields.map((field) => {
    const hash = sealedHash(record, field);
    const text = texts.find((t) => t.field === field);
    const erased = erasures.find((e) => e.field === field);
    const status = erased ? "erased" : text ? "published" : hash === ZERO_HASH ? "none" : "pending";
    return {
      field,
      hash,
      status,
      text: text?.text ?? null,
      salt: text?.salt ?? null,
      erasedAt: erased?.erased_at ?? null,
    };
  });
}

/** A text posted for a sealed record's erasable field. */
export interface TextSubmission {
  readonly field: string;
  readonly text: string;
  readonly salt: string;
}

/**
 * Stores the text of a record's erasable field once its salted hash matches the sealed one: the
 * agent signed the hash, so only the text it stands for is accepted. Refused for an unknown seal
 * or field (404), a field sealed empty (422 NO_TEXT), a text that does not match (422
 * TEXT_MISMATCH) or a field already erased (410 ERASED: an erased text is never taken back).
 * The same text again answers `created: false`.
 */
export async function postText(
  store: Store,
  seal: string,
  submission: TextSubmission,
  now: number,
): Promise<{ seal: string; field: string; created: boolean }> {
  const { field, text, salt } = submission;
  if ([...text].length > ERASABLE_TEXT_MAX)
    throw new InvalidInputError("text", `must be at most ${ERASABLE_TEXT_MAX} characters`);
  return store.db.transaction().execute(async (trx) => {
    const record = await sealedFields(trx, seal);
    const hash = sealedHash(record, field);
    if (hash === ZERO_HASH)
      throw new ErasureRefusedError(
        422,
        "NO_TEXT",
        `record ${seal} sealed no ${field} (its ${field}Hash is zero)`,
      );
    if ((await erasuresOf(trx, seal)).some((e) => e.field === field))
      throw new ErasureRefusedError(410, "ERASED", `the ${field} of record ${seal} was erased on request`);
    if (erasableHash(salt.toLowerCase(), text) !== hash)
      throw new ErasureRefusedError(
        422,
        "TEXT_MISMATCH",
        `sha256(salt ‖ text) is not the ${field}Hash record ${seal} sealed (${hash})`,
      );
    const stored = (await erasableTextsOf(trx, seal)).find((t) => t.field === field);
    if (stored) return { seal, field, created: false };
    await insertErasableText(trx, { seal, field, salt: salt.toLowerCase(), text, stored_at: now });
    return { seal, field, created: true };
  });
}
