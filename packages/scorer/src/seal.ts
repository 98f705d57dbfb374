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

/**
 * The canonical text of a value `assertJcsValue` accepts, written in one pass (what `canonicalize`
 * writes: members sorted by key in UTF-16 code units, primitives as `JSON.stringify` writes them);
 * undefined for anything else (and for a sparse array), which the checked path then refuses or
 * writes. Keeps the hot path (a manifest an hour per agent) free of the check's path strings.
 */
function jcsText(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return LONE_SURROGATE.test(value) ? undefined : JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return Number.isFinite(value) && (Number.isSafeInteger(value) || !Number.isInteger(value))
        ? JSON.stringify(value)
        : undefined;
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return undefined;
          const item = jcsText(value[i]);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return undefined;
      const keys = Object.keys(value).sort();
      let out = "{";
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        if (LONE_SURROGATE.test(key)) return undefined;
        const item = jcsText((value as Record<string, unknown>)[key]);
        if (item === undefined) return undefined;
        out += `${i === 0 ? "" : ","}${JSON.stringify(key)}:${item}`;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** The RFC 8785 canonical JSON text of a record. */
export function canonicalJson(record: unknown): string {
  return jcsText(record) ?? checkedCanonicalJson(record);
}

/** canonicalJson the long way (check every value, then `canonicalize`): what refuses a record, and the reference. */
export function checkedCanonicalJson(record: unknown): string {
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
