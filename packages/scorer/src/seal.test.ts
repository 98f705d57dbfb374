import { expect } from "chai";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { canonicalJson, checkedCanonicalJson, seal, UnsealableRecordError } from "./seal";

describe("seal", () => {
  it("hashes the RFC 8785 canonical form, so key order does not matter", () => {
    const a = seal({ b: 1, a: [true, null, "x"] });
    const b = seal({ a: [true, null, "x"], b: 1 });
    expect(a).to.equal(b);
    const expected = createHash("sha256").update('{"a":[true,null,"x"],"b":1}').digest("hex");
    expect(a).to.equal(`0x${expected}`);
  });

  it("writes numbers as RFC 8785 does (ECMAScript shortest form)", () => {
    expect(canonicalJson({ n: 1e-7, m: 0.000001, k: -0 })).to.equal('{"k":0,"m":0.000001,"n":1e-7}');
    // 1e21 would be written 1e+21, but an integer beyond ±(2^53 − 1) is not I-JSON: refused (ijson.test.ts).
    expect(() => canonicalJson({ n: 1e21 })).to.throw(UnsealableRecordError);
  });

  for (const [label, record] of [
    ["NaN", { x: NaN }],
    ["Infinity", { x: [1, Infinity] }],
    ["undefined", { x: undefined }],
    ["a BigInt", { x: 1n }],
    ["a lone surrogate", { x: "\uD800" }],
    ["a Date", { x: new Date(0) }],
  ] as const) {
    it(`refuses ${label} with a typed error naming the field`, () => {
      expect(() => seal(record)).to.throw(UnsealableRecordError, /\$\.x/);
    });
  }

  it("names the offending value and where it sits, however deep", () => {
    const cases: [unknown, string][] = [
      [{ x: NaN }, "$.x is NaN"],
      [{ x: [1, -Infinity] }, "$.x[1] is -Infinity"],
      [{ a: { b: [0, { c: 1n }] } }, "$.a.b[1].c is bigint"],
      [{ x: () => 0 }, "$.x is function"],
      [{ x: Symbol("s") }, "$.x is symbol"],
      [undefined, "$ is undefined"],
      [{ x: new Map() }, "$.x is a Map"],
      [{ x: Object.create(Object.create(null)) }, "$.x is a non-plain object"],
      [{ x: ["ok", "a\uDC00"] }, "$.x[1] contains a lone surrogate"],
      [{ x: { "k\uD800": 1 } }, "$.x has a key with a lone surrogate"],
    ];
    for (const [record, message] of cases) {
      const error = (() => {
        try {
          seal(record);
        } catch (e) {
          return e as UnsealableRecordError;
        }
        throw new Error(`sealed ${message}`);
      })();
      expect(error).to.be.instanceOf(UnsealableRecordError);
      expect(error.message).to.equal(`cannot seal record: ${message}`);
      expect([error.name, error.code]).to.deep.equal(["UnsealableRecordError", "UNSEALABLE_RECORD"]);
      expect(error.details.path).to.equal(message.split(" ")[0]);
    }
  });

  it("refuses a surrogate unpaired on either side, anywhere in a string, and seals a paired one", () => {
    for (const text of [
      "\uD800",
      "a\uDBFF",
      "\uDBFFb",
      "\uDC00",
      "a\uDFFF",
      "\uDC00\uD800",
      "\uDFFF\uDFFF",
    ]) {
      expect(() => seal({ text }), JSON.stringify(text)).to.throw(UnsealableRecordError, "lone surrogate");
    }
    for (const text of ["\uD83D\uDE00", "a\uD800\uDC00b", "\uDBFF\uDFFF", "\uD7FF\uE000"]) {
      const expected = createHash("sha256")
        .update(`{"text":${JSON.stringify(text)}}`, "utf8")
        .digest("hex");
      expect(seal({ text }), JSON.stringify(text)).to.equal(`0x${expected}`);
    }
  });

  it("property: the one-pass text is the checked path's text, and what one refuses the other refuses alike", () => {
    const outcome = (write: (value: unknown) => string, value: unknown) => {
      try {
        return `text ${write(value)}`;
      } catch (error) {
        return `refused ${String(error)}`;
      }
    };
    // Strings and keys of characters whose UTF-16 and code point orders differ (U+E000 against an
    // astral pair), lone surrogates, escapes; -0, integers past 2^53, holes, undefined, NaN, Dates.
    const text = (maxLength: number) =>
      fc.string({
        unit: fc.oneof(
          {
            arbitrary: fc.constantFrom("a", "B", "é", "\uE000", "\uD83D\uDE00", '"', "\\", "\n", "\u0000"),
            weight: 12,
          },
          { arbitrary: fc.constantFrom("\uD800", "\uDC00"), weight: 1 },
        ),
        maxLength,
      });
    const leaf = fc.oneof(
      text(6),
      fc.double(),
      fc.integer(),
      fc.constantFrom(-0, 2 ** 53, 1e21, null, true, false, undefined, new Date(0), 1n),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ maxDepth: 3, withCrossShrink: true }, leaf, tie("array"), tie("object")),
      array: fc.oneof(
        fc.array(tie("node"), { maxLength: 4 }),
        fc.sparseArray(tie("node"), { maxLength: 4, noTrailingHole: true }),
      ),
      object: fc.dictionary(text(3), tie("node"), { maxKeys: 5 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(canonicalJson, v)).to.equal(outcome(checkedCanonicalJson, v));
      }),
    );
  });

  it("seals an object without a prototype like the plain object with the same fields", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2, a: [1] });
    expect(seal(bare)).to.equal(seal({ a: [1], b: 2 }));
    expect(canonicalJson({ n: null, t: true, f: false })).to.equal('{"f":false,"n":null,"t":true}');
  });
});
