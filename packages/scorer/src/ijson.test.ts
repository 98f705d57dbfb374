import { expect } from "chai";
import fc from "fast-check";
import { checkSnapshotRow } from "./augur/input";
import { InvalidInputError } from "./errors";
import { parseIJson } from "./ijson";
import { seal, UnsealableRecordError } from "./seal";

function refusal(run: () => unknown): UnsealableRecordError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(UnsealableRecordError);
    return error as UnsealableRecordError;
  }
  return expect.fail("expected UnsealableRecordError");
}

describe("I-JSON (RFC 7493): what JSON cannot say twice is refused, never sealed as something else", () => {
  it("refuses a repeated key, naming the object", () => {
    const error = refusal(() => parseIJson('{"a":{"nav":"1","flow":"0","nav":"2"}}'));
    expect(error.message).to.equal('cannot seal record: $.a repeats the key "nav" (I-JSON, RFC 7493)');
    // The same key spelled with an escape is the same key.
    refusal(() => parseIJson('{"nav":1,"n\\u0061v":2}'));
    // Equal keys in different objects, and equal strings as values, are fine.
    expect(parseIJson('{"a":{"k":"k"},"b":{"k":"k"},"k":["k","k"]}')).to.deep.equal({
      a: { k: "k" },
      b: { k: "k" },
      k: ["k", "k"],
    });
  });

  it("refuses integers beyond ±(2^53 − 1) in text and in values, accepts the bounds", () => {
    expect(parseIJson("[9007199254740991,-9007199254740991,1.5,1e3]")).to.deep.equal([
      9007199254740991, -9007199254740991, 1.5, 1000,
    ]);
    for (const text of [
      "9007199254740992",
      "-9007199254740992",
      "9007199254740993",
      "1e300",
      '{"x":[0,2e16]}',
    ])
      refusal(() => parseIJson(text));
    expect(refusal(() => parseIJson('{"x":[0,2e16]}')).message).to.contain("$.x[1] is an integer beyond");
    expect(refusal(() => seal({ n: 2 ** 53 })).message).to.contain("$.n is an integer beyond ±(2^53 − 1)");
    expect(seal({ n: 2 ** 53 - 1 })).to.match(/^0x[0-9a-f]{64}$/);
  });

  it("refuses a number beyond a double's range (JSON.parse reads it as Infinity), naming where it sits", () => {
    expect(refusal(() => parseIJson('{"x":[1,-1e400]}')).message).to.equal(
      "cannot seal record: $.x[1] is beyond the range of a double",
    );
    expect(refusal(() => parseIJson("1e400")).message).to.contain("$ is beyond the range of a double");
  });

  it("reads a number from its first character: 0.5e16 is 5 × 10^15, a safe integer, not 5e16", () => {
    expect(parseIJson("[0.5e16,-0.9e16,0e400]")).to.deep.equal([5e15, -9e15, 0]);
  });

  it("leaves an array where it closes: what follows belongs to the parent again", () => {
    // A key after an array value is still checked against the object's keys ...
    expect(refusal(() => parseIJson('{"a":[],"a":1}')).message).to.contain('$ repeats the key "a"');
    expect(refusal(() => parseIJson('{"a":[[1]],"b":{},"a":1}')).message).to.contain('repeats the key "a"');
    // ... and an element after a nested array is named by its own index.
    expect(refusal(() => parseIJson("[[0],2e16]")).message).to.contain("$[1] is an integer beyond");
  });

  it("has the scorer refuse a snapshot whose NAV is a JSON number a seal cannot hold (its text can)", () => {
    const row = { agent: "a", at: "2026-11-01T00:00:00Z", nav: 1e21, flow: 0, invested: 0.5 };
    expect(() => checkSnapshotRow(row, "snapshots[0]"))
      .to.throw(InvalidInputError)
      .with.property("path", "snapshots[0].nav");
    expect(checkSnapshotRow({ ...row, nav: "1000000000000000000000" }, "snapshots[0]").agent).to.equal("a");
  });

  it("keeps JSON.parse's own refusal of malformed text", () => {
    expect(() => parseIJson('{"a":')).to.throw(SyntaxError);
  });

  it("agrees with JSON.parse on every I-JSON text (property)", () => {
    const ijsonValue = fc.jsonValue().filter((v) => {
      try {
        seal(v);
        return true;
      } catch {
        return false;
      }
    });
    fc.assert(
      fc.property(ijsonValue, (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(parseIJson(text)).to.deep.equal(JSON.parse(text));
      }),
    );
  });
});
