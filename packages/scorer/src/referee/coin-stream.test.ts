import { expect } from "chai";
import { createHash } from "node:crypto";
import { MONKEYS } from "./constants";
import { cohortSeed, coinBit, coinStream, coinStreamBytes, monkeyCoin } from "./coin-stream";

describe("the pinned coin stream", () => {
  it("seeds each cohort with sha256 of the UTF-8 text OAIA|<epoch>|<agent>", () => {
    const seed = Buffer.from(cohortSeed("7", "alice")).toString("hex");
    expect(seed).to.equal(createHash("sha256").update("OAIA|7|alice").digest("hex"));
    // Non-ASCII agent ids are hashed as UTF-8 bytes.
    const utf8 = Buffer.from("OAIA|7|agent-é", "utf8");
    expect(
      Buffer.from(cohortSeed("7", "agent-é")).equals(createHash("sha256").update(utf8).digest()),
    ).to.equal(true);
  });

  it("is sha256(seed ‖ uint32be(0)) ‖ sha256(seed ‖ uint32be(1)) ‖ …, cut to 2,048 × n bits", () => {
    const seed = cohortSeed("7", "alice");
    const stream = coinStream(seed, 3);
    expect(coinStreamBytes(3)).to.equal(768);
    // 768 bytes = 24 blocks, plus one zero byte of padding for 16-bit reads.
    expect(stream.length).to.equal(24 * 32 + 1);
    const block23 = createHash("sha256")
      .update(seed)
      .update(Buffer.from([0, 0, 0, 23]))
      .digest();
    expect(Buffer.from(stream.subarray(23 * 32, 24 * 32)).equals(block23)).to.equal(true);
    expect(stream[stream.length - 1]).to.equal(0);
  });

  it("takes bits most significant first within each byte", () => {
    const stream = Uint8Array.of(0b1000_0001, 0b0100_0000);
    const bits = Array.from({ length: 16 }, (_, i) => coinBit(stream, i));
    expect(bits.join("")).to.equal("1000000101000000");
  });

  it("gives monkey m's coin on call c of n as bit m × n + c", () => {
    const stream = coinStream(cohortSeed("7", "alice"), 5);
    for (const [m, c] of [
      [0, 0],
      [0, 4],
      [1, 0],
      [2047, 4],
    ] as const) {
      expect(monkeyCoin(stream, m, c, 5)).to.equal(coinBit(stream, m * 5 + c));
    }
    // Monkey 1's first coin is the sixth bit of the stream: byte 0, mask 0b0000_0100.
    expect(monkeyCoin(stream, 1, 0, 5)).to.equal((stream[0]! >> 2) & 1);
    expect(MONKEYS).to.equal(2048);
  });
});
