import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { encryptKeystoreJson, Wallet } from "ethers";
import { KeeperConfigError } from "./errors";
import { loadSigner } from "./signer";
import { HARDHAT_KEYS } from "../../test-support/keeper/testing";

async function refusal(source: Parameters<typeof loadSigner>[0]): Promise<string> {
  try {
    await loadSigner(source);
  } catch (error) {
    expect(error).to.be.instanceOf(KeeperConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("keeper signer", () => {
  const expected = new Wallet(HARDHAT_KEYS[1]).address;

  it("loads KEEPER_PRIVATE_KEY and refuses malformed keys", async () => {
    expect((await loadSigner({ privateKey: HARDHAT_KEYS[1] })).address).to.equal(expected);
    expect(await refusal({ privateKey: "0x1234" })).to.match(/64 hex digits/);
    expect(await refusal({ privateKey: `0x${"00".repeat(32)}` })).to.match(/not a valid/);
    expect(await refusal({})).to.match(/no keeper key/);
    expect(await refusal({ privateKey: HARDHAT_KEYS[1], keystore: "k.json" })).to.match(/not both/);
  });

  it("decrypts a keystore with its password and refuses a wrong one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "augur-keystore-"));
    try {
      const file = join(dir, "keeper.json");
      // Light scrypt parameters keep the test fast; real keystores use the defaults.
      const json = await encryptKeystoreJson(
        { address: expected, privateKey: HARDHAT_KEYS[1] },
        "correct horse",
        {
          scrypt: { N: 1024 },
        },
      );
      writeFileSync(file, json);
      expect((await loadSigner({ keystore: file, password: "correct horse" })).address).to.equal(expected);
      expect(await refusal({ keystore: file, password: "wrong" })).to.match(/cannot decrypt/);
      expect(await refusal({ keystore: file })).to.match(/KEEPER_KEYSTORE_PASSWORD/);
      expect(await refusal({ keystore: join(dir, "missing.json"), password: "x" })).to.match(/cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
