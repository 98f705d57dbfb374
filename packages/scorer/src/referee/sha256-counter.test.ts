import { expect } from "chai";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { sha256CounterStream } from "./sha256-counter";

function referenceBlock(seed: Uint8Array, counter: number): Buffer {
  const counterBytes = Buffer.alloc(4);
  counterBytes.writeUInt32BE(counter);
  return createHash("sha256").update(seed).update(counterBytes).digest();
}

describe("sha256CounterStream", () => {
  it("equals node:crypto's sha256(seed ‖ uint32be(i)) block by block", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 1, max: 12 }),
        (seed, blocks) => {
          const out = new Uint8Array(blocks * 32);
          sha256CounterStream(seed, out, blocks);
          for (let i = 0; i < blocks; i++) {
            expect(Buffer.from(out.subarray(32 * i, 32 * i + 32)).equals(referenceBlock(seed, i))).to.equal(
              true,
            );
          }
        },
      ),
    );
  });

  it("is right for counters far from zero (all four counter bytes in play)", () => {
    const seed = createHash("sha256").update("far").digest();
    const out = new Uint8Array(70_000 * 32);
    sha256CounterStream(seed, out, 70_000);
    for (const i of [255, 256, 65_535, 65_536, 69_999]) {
      expect(Buffer.from(out.subarray(32 * i, 32 * i + 32)).toString("hex")).to.equal(
        referenceBlock(seed, i).toString("hex"),
      );
    }
  });

  it("refuses a seed that is not 32 bytes and an output too short", () => {
    expect(() => sha256CounterStream(new Uint8Array(31), new Uint8Array(32), 1)).to.throw(
      RangeError,
      "seed must be 32 bytes",
    );
    expect(() => sha256CounterStream(new Uint8Array(32), new Uint8Array(63), 2)).to.throw(
      RangeError,
      "output too short for the blocks asked",
    );
  });

  it("writes the blocks asked and not a byte past them", () => {
    const seed = createHash("sha256").update("tail").digest();
    const out = new Uint8Array(2 * 32 + 8).fill(0xaa);
    sha256CounterStream(seed, out, 2);
    expect(Buffer.from(out.subarray(32, 64)).equals(referenceBlock(seed, 1))).to.equal(true);
    expect([...out.subarray(64)]).to.deep.equal(Array(8).fill(0xaa));
  });
});
