import { expect } from "chai";
import { Wallet } from "ethers";
import { augurDomain, typedDataTypes } from "./eip712";
import { BadSignatureError } from "./errors";
import { recoverSigner } from "./signature";
import { normalizeMessage } from "./validate";

const CHAIN = 31337;
const agent = new Wallet(`0x${"11".repeat(32)}`);
const message = { agentId: "ada", seasonId: "s1", takenAt: 1, nav: "1", flow: "0", investedBps: 0 };

function refusal(signature: unknown): string {
  try {
    recoverSigner("sig", "Snapshot", CHAIN, normalizeMessage("Snapshot", message), signature);
  } catch (error) {
    expect(error).to.be.instanceOf(BadSignatureError);
    return (error as BadSignatureError).message;
  }
  return expect.fail("expected a BadSignatureError");
}

describe("@augur/records: recoverSigner's refusals name the field and say why", () => {
  it("refuses what is not 0x + 130 hex digits before recovering anything, even its text wrapped in an array", async () => {
    const good = await agent.signTypedData(augurDomain(CHAIN), typedDataTypes("Snapshot"), message);
    const shape = "sig: must be a 65-byte signature (0x + 130 hex digits)";
    for (const bad of ["0x12", `${good}00`, good.slice(2), `0x${"g".repeat(130)}`, 42, null, [good]])
      expect(refusal(bad)).to.equal(shape);
    expect(recoverSigner("sig", "Snapshot", CHAIN, normalizeMessage("Snapshot", message), good)).to.equal(
      agent.address.toLowerCase(),
    );
  });

  it("refuses 65 bytes that recover to no address (r = s = 0, v = 0)", () => {
    expect(refusal(`0x${"00".repeat(65)}`)).to.equal("sig: does not recover to any address");
  });
});
