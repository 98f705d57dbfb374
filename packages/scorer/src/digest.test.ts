import { expect } from "chai";
import fc from "fast-check";
import { digestHex, sha256, sha256Digest, writeDigest, writeHex32 } from "./digest";

/** The reference: Buffer's hex decoder, which stops at the first pair that is not two hex digits. */
function referenceHex32(text: string): Buffer | null {
  if (text.length !== 66 || !text.startsWith("0x")) return null;
  const bytes = Buffer.alloc(32);
  return bytes.write(text.slice(2), 0, 32, "hex") === 32 ? bytes : null;
}

const hexDigit = fc.constantFrom(..."0123456789abcdefABCDEF");
/** Mostly hex digits, sometimes anything (ASCII, Latin-1, other planes' code units). */
const digitOrNot = fc.oneof(
  { weight: 30, arbitrary: hexDigit },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);

describe("digest plumbing fast paths", () => {
  it("property: writeHex32 decodes exactly what Buffer's hex decoder accepts, byte for byte", () => {
    const text = fc.oneof(
      fc.array(digitOrNot, { minLength: 64, maxLength: 64 }).map((d) => `0x${d.join("")}`),
      fc.string({ unit: "binary", maxLength: 70 }),
      fc.array(hexDigit, { minLength: 60, maxLength: 68 }).map((d) => `0x${d.join("")}`),
      fc.array(hexDigit, { minLength: 64, maxLength: 64 }).map((d) => `0X${d.join("")}`),
    );
    fc.assert(
      fc.property(text, fc.nat(8), (value, at) => {
        const bytes = new Uint8Array(at + 40).fill(0xee);
        const ok = writeHex32(value, bytes, at);
        const reference = referenceHex32(value);
        expect(ok, JSON.stringify(value)).to.equal(reference !== null);
        if (reference) {
          expect(Buffer.from(bytes.subarray(at, at + 32)).equals(reference)).to.equal(true);
          expect([...bytes.subarray(0, at), ...bytes.subarray(at + 32)].every((b) => b === 0xee)).to.equal(
            true,
          );
        }
      }),
    );
  });

  it("writeHex32 takes all-zero bytes and refuses any prefix but 0x", () => {
    const bytes = new Uint8Array(32).fill(7);
    expect(writeHex32(`0x${"00".repeat(32)}`, bytes, 0)).to.equal(true);
    expect([...bytes]).to.deep.equal(Array(32).fill(0));
    for (const prefix of ["1x", "0X", "0y", "00"]) {
      expect(writeHex32(`${prefix}${"ab".repeat(32)}`, bytes, 0), prefix).to.equal(false);
    }
  });

  it("writeHex32 refuses a digit whose low 7 bits are a hex digit (the table is 7-bit)", () => {
    const bytes = new Uint8Array(32);
    const valid = `0x${"ab".repeat(32)}`;
    expect(writeHex32(valid, bytes, 0)).to.equal(true);
    for (const stray of ["\u00e1", "\u0130", "\u4e61", "\ud800"]) {
      expect(writeHex32(`0x${stray}${"b".repeat(63)}`, bytes, 0), stray).to.equal(false);
      expect(writeHex32(`0x${"a".repeat(63)}${stray}`, bytes, 0), stray).to.equal(false);
    }
  });

  it("property: writeDigest copies a digest's 32 bytes as Buffer's latin1 decoder does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(8), (data, at) => {
        const digest = sha256Digest(data);
        const bytes = new Uint8Array(at + 40).fill(0xee);
        writeDigest(digest, bytes, at);
        expect(Buffer.from(bytes.subarray(at, at + 32)).equals(Buffer.from(digest, "latin1"))).to.equal(true);
        // Nothing around the 32 bytes is touched (a level buffer holds the next node's prefix there).
        expect([...bytes.subarray(0, at), ...bytes.subarray(at + 32)].every((b) => b === 0xee)).to.equal(
          true,
        );
      }),
    );
  });

  it('sha256 of "abc" (FIPS 180-2 vector) as a Digest, its hex, and as bytes', () => {
    const abc = "0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(sha256Digest("abc")).to.have.length(32);
    expect(digestHex(sha256Digest("abc"))).to.equal(abc);
    expect(digestHex(sha256Digest(Buffer.from("abc")))).to.equal(abc);
    expect(sha256("abc")).to.be.instanceOf(Buffer);
    expect(`0x${sha256("abc").toString("hex")}`).to.equal(abc);
  });
});
