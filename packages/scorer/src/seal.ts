import { hash } from "node:crypto";
import canonicalize from "canonicalize";
import { AugurError } from "./errors";
import type { Hex32 } from "./hex";
import { assertIJsonNumber } from "./ijson";

/**
 * A record holds a value RFC 8785 (JCS) cannot represent, or that I-JSON (RFC 7493) forbids (a
 * repeated key, an integer beyond ±(2^53 − 1)); it is refused, never altered.
 */
export class UnsealableRecordError extends AugurError {
  override readonly name = "UnsealableRecordError";
  constructor(path: string, problem: string) {
    super("UNSEALABLE_RECORD", `cannot seal record: ${path} ${problem}`, { path });
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Rejects every value JSON.stringify would drop, coerce or mangle, naming where it sits. */
function assertJcsValue(value: unknown, path: string): void {
  switch (typeof value) {
    case "string":
      if (LONE_SURROGATE.test(value)) throw new UnsealableRecordError(path, "contains a lone surrogate");
      return;
    case "boolean":
      return;
    case "number":
      if (!Number.isFinite(value)) throw new UnsealableRecordError(path, `is ${value}`);
      assertIJsonNumber(value, path);
      return;
    case "object":
      if (value === null) return;
      if (Array.isArray(value)) {
        value.forEach((item, i) => assertJcsValue(item, `${path}[${i}]`));
        return;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
        throw new UnsealableRecordError(path, `is a ${value.constructor?.name ?? "non-plain object"}`);
      }
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key))
          throw new UnsealableRecordError(path, "has a key with a lone surrogate");
        assertJcsValue(item, `${path}.${key}`);
      }
      return;
    default:
      throw new UnsealableRecordError(path, `is ${typeof value}`);
  }
}

/** The RFC 8785 canonical JSON text of a record. */
export function canonicalJson(record: unknown): string {
  assertJcsValue(record, "$");
  const text = canonicalize(record);
  if (text === undefined) throw new UnsealableRecordError("$", "has no JSON form");
  return text;
}

/** seal = `0x` + hex sha256 of the record's canonical JSON (UTF-8). */
export function seal(record: unknown): Hex32 {
  return sealText(canonicalJson(record));
}

/** `0x` + hex sha256 of a text (UTF-8): the seal of a record whose canonical JSON is `text`. */
export function sealText(text: string): Hex32 {
  return `0x${hash("sha256", text, "hex")}`;
}
