import { UnsealableRecordError } from "./seal";

// I-JSON (RFC 7493, which RFC 8785 builds on): no object repeats a key, and no number is an
// integer beyond ±(2^53 − 1), which IEEE 754 doubles cannot hold exactly. Both are visible only
// in the text (JSON.parse keeps the last duplicate and rounds the integer), so the text is checked.

interface Frame {
  readonly path: string;
  /** The keys seen so far; null for an array. */
  readonly keys: Set<string> | null;
  key: string;
  index: number;
  expectKey: boolean;
}

const NUMBER_CHAR = /[0-9eE.+-]/;

/** Refuses a number JSON cannot carry exactly between two parties (also used on values by `seal`). */
export function assertIJsonNumber(value: number, path: string): void {
  if (!Number.isFinite(value)) throw new UnsealableRecordError(path, "is beyond the range of a double");
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    throw new UnsealableRecordError(path, "is an integer beyond ±(2^53 − 1) (I-JSON, RFC 7493)");
}

function childPath(top: Frame | undefined): string {
  if (!top) return "$";
  return top.keys ? `${top.path}.${top.key}` : `${top.path}[${top.index}]`;
}

/** Scans valid JSON text for what I-JSON forbids; throws UnsealableRecordError naming the path. */
function checkText(text: string): void {
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === "{" || c === "[") {
      stack.push({
        path: childPath(top),
        keys: c === "{" ? new Set() : null,
        key: "",
        index: 0,
        expectKey: true,
      });
      i += 1;
    } else if (c === "}" || c === "]") {
      stack.pop();
      i += 1;
    } else if (c === ",") {
      if (top!.keys) top!.expectKey = true;
      else top!.index += 1;
      i += 1;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key))
          throw new UnsealableRecordError(top.path, `repeats the key "${key}" (I-JSON, RFC 7493)`);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j + 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i + 1;
      while (j < text.length && NUMBER_CHAR.test(text[j]!)) j += 1;
      assertIJsonNumber(Number(text.slice(i, j)), childPath(top));
      i = j;
    } else {
      i += 1; // whitespace, ':', true, false, null
    }
  }
}

/**
 * JSON.parse for text that is about to be sealed or signed for: malformed JSON throws JSON.parse's
 * SyntaxError; a duplicate key or an integer beyond ±(2^53 − 1) throws UnsealableRecordError.
 */
export function parseIJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  checkText(text);
  return value;
}
