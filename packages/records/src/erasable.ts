import { InvalidInputError } from "@augur/scorer";
import { concat, hexlify, randomBytes, sha256, toUtf8Bytes } from "ethers";
import { ZERO_HASH } from "./fields";

/**
 * Erasable text: free text never enters a sealed body. The body carries `<field>Hash` =
 * sha256(salt ‖ UTF-8 text) with a fresh 32-byte salt per field; the text and its salt are kept
 * beside the record, where they may be erased on request without touching the seal or any proof.
 * The salt keeps a short text (a name, "yes") from being found by hashing guesses.
 */
export interface ErasableText {
  readonly text: string;
  /** 0x + 64 hex digits. */
  readonly salt: string;
  /** sha256(salt ‖ text), the value sealed as `<field>Hash`. */
  readonly hash: string;
}

const SALT = /^0x[0-9a-f]{64}$/;

/** The hash a sealed body carries for `text` under `salt` (0x + 64 lowercase hex digits). */
export function erasableHash(salt: string, text: string): string {
  if (!SALT.test(salt)) throw new InvalidInputError("salt", "must be 0x + 64 lowercase hex digits");
  return sha256(concat([salt, toUtf8Bytes(text)]));
}

/** A new salt and the hash of `text` under it; the empty text is no text (the zero hash, no salt). */
export function erasableText(text: string, salt: string = hexlify(randomBytes(32))): ErasableText {
  if (text === "") return { text, salt: "", hash: ZERO_HASH };
  return { text, salt, hash: erasableHash(salt, text) };
}

/**
 * The erasable fields of each body kind: a signed record's type, or an engine record's format.
 * The sealed body holds `<field>Hash`; a body kind not listed here has no erasable field.
 */
export const ERASABLE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  DecisionV3: ["note"],
};

/** The field of a sealed body that holds the hash of erasable field `field`. */
export const hashFieldOf = (field: string): string => `${field}Hash`;

/**
 * The hash a body of kind `kind` seals for erasable field `field`: undefined when the kind has no
 * such field, the zero hash when the record has no text there.
 */
export function sealedTextHash(
  kind: string,
  message: Readonly<Record<string, unknown>>,
  field: string,
): string | undefined {
  if (!(ERASABLE_FIELDS[kind] ?? []).includes(field)) return undefined;
  const hash = message[hashFieldOf(field)];
  return typeof hash === "string" ? hash : undefined;
}
