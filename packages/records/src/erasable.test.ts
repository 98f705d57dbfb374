import { createHash } from "node:crypto";
import { expect } from "chai";
import { erasableHash, erasableText, sealedTextHash } from "./erasable";
import { ZERO_HASH } from "./fields";
import { normalizeMessage } from "./validate";

const SALT = `0x${"5a".repeat(32)}`;

describe("erasable text (free text out of sealed bodies)", () => {
  it("hashes sha256(salt bytes ‖ UTF-8 text), so anyone can check a served text", () => {
    const expected = createHash("sha256")
      .update(Buffer.concat([Buffer.from("5a".repeat(32), "hex"), Buffer.from("Grüße, Ada", "utf8")]))
      .digest("hex");
    expect(erasableHash(SALT, "Grüße, Ada")).to.equal(`0x${expected}`);
    expect(erasableText("Grüße, Ada", SALT).hash).to.equal(`0x${expected}`);
    expect(erasableText("")).to.deep.equal({ text: "", salt: "", hash: ZERO_HASH });
    expect(() => erasableHash("0x12", "x")).to.throw("salt: must be 0x + 64 lowercase hex digits");
  });

  it("reads the sealed hash of a kind's erasable field, and nothing for other kinds or fields", () => {
    const message = { noteHash: erasableHash(SALT, "n"), note: "old" };
    expect(sealedTextHash("DecisionV3", message, "note")).to.equal(message.noteHash);
    expect(sealedTextHash("DecisionV2", message, "note")).to.equal(undefined);
    expect(sealedTextHash("DecisionV3", message, "reason")).to.equal(undefined);
    // A body whose hash field is not text has none.
    expect(sealedTextHash("DecisionV3", { noteHash: 7 }, "note")).to.equal(undefined);
  });

  it("DecisionV3 names a trade only for a buy or a sell (the zero txHash names none)", () => {
    const base = {
      agentId: "alpha",
      seasonId: "s1",
      decidedAt: 1_700_000_000,
      asset: `0x${"ab".repeat(20)}`,
      source: "decider",
      confidenceBps: 6000,
      noteHash: ZERO_HASH,
    };
    const trade = `0x${"cd".repeat(32)}`;
    expect(normalizeMessage("DecisionV3", { ...base, action: "hold", txHash: ZERO_HASH }).action).to.equal(
      "hold",
    );
    expect(normalizeMessage("DecisionV3", { ...base, action: "buy", txHash: trade }).txHash).to.equal(trade);
    expect(() => normalizeMessage("DecisionV3", { ...base, action: "hold", txHash: trade })).to.throw(
      "message.txHash: names a trade",
    );
    expect(() =>
      normalizeMessage("DecisionV3", { ...base, action: "hold", txHash: trade, note: "x" }),
    ).to.throw("message.note: is not a DecisionV3 field");
  });
});
