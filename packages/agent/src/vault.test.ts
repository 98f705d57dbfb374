import { expect } from "chai";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VaultCorruptError, VaultEntryExistsError, VaultPassphraseError } from "./errors";
import { SaltVault, type VaultEntry } from "./vault";

function entry(n: number, overrides: Partial<VaultEntry> = {}): VaultEntry {
  return {
    commitment: `0x${n.toString(16).padStart(64, "0")}`,
    chainId: 31337,
    ledger: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    agent: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    asset: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
    window: 3600,
    direction: 1,
    confidenceBps: 7000,
    salt: `0x${"ab".repeat(32)}`,
    preparedAt: n,
    state: "prepared",
    ...overrides,
  };
}

function vaultPath(): string {
  return join(mkdtempSync(join(tmpdir(), "augur-vault-test-")), "nested", "vault.json");
}

describe("SaltVault", () => {
  it("writes the salt to disk before put returns, readable by a new process (a fresh open)", () => {
    const path = vaultPath();
    SaltVault.open(path).put(entry(1));
    const reopened = SaltVault.open(path);
    expect(reopened.get(entry(1).commitment)).to.deep.equal(entry(1));
  });

  it("creates the file with mode 0600 and leaves no temporary file behind", () => {
    const path = vaultPath();
    const vault = SaltVault.open(path);
    vault.put(entry(1));
    vault.update(entry(1).commitment, { state: "committed", callId: "42" });
    expect(statSync(path).mode & 0o777).to.equal(0o600);
    expect(readdirSync(join(path, ".."))).to.deep.equal(["vault.json"]);
  });

  it("update merges and persists; findByCallId and open() follow the state", () => {
    const path = vaultPath();
    const vault = SaltVault.open(path);
    vault.put(entry(1));
    vault.put(entry(2));
    vault.update(entry(1).commitment, { state: "committed", callId: "7" });
    vault.update(entry(2).commitment, { state: "settled", callId: "8", outcome: "hit" });
    const reopened = SaltVault.open(path);
    expect(reopened.findByCallId(7n)!.commitment).to.equal(entry(1).commitment);
    expect(reopened.open().map((e) => e.callId)).to.deep.equal(["7"]);
    expect(reopened.list().map((e) => e.state)).to.deep.equal(["committed", "settled"]);
  });

  it("refuses a second entry for the same commitment (a salt is never overwritten)", () => {
    const vault = SaltVault.open(vaultPath());
    vault.put(entry(1));
    expect(() => vault.put(entry(1, { salt: `0x${"cd".repeat(32)}` }))).to.throw(
      VaultEntryExistsError,
      /is already in the vault .*: a salt is never overwritten/,
    );
    expect(vault.get(entry(1).commitment)!.salt).to.equal(entry(1).salt);
  });

  it("keys by the lowercase commitment", () => {
    const vault = SaltVault.open(vaultPath());
    vault.put(entry(0xabc, { commitment: `0x${"AB".repeat(32)}` }));
    expect(vault.get(`0x${"ab".repeat(32)}`)).to.not.equal(undefined);
  });

  it("with a passphrase: nothing of the entries is readable in the file, and it reopens only with that passphrase", () => {
    const path = vaultPath();
    SaltVault.open(path, "correct horse").put(entry(1));
    const text = readFileSync(path, "utf8");
    // Whole values, not fragments: four hex digits turn up in random ciphertext now and then.
    expect(text).to.not.include(entry(1).salt.slice(2));
    expect(text).to.not.include(entry(1).ledger.slice(2));
    expect(text).to.not.include('"window"');
    expect(JSON.parse(text).format).to.equal("augur-salt-vault/v1+scrypt-aes-256-gcm");
    expect(SaltVault.open(path, "correct horse").get(entry(1).commitment)!.salt).to.equal(entry(1).salt);
    expect(() => SaltVault.open(path, "wrong")).to.throw(VaultPassphraseError, /wrong passphrase/);
    expect(() => SaltVault.open(path)).to.throw(
      VaultPassphraseError,
      /is encrypted: set AUGUR_VAULT_PASSPHRASE/,
    );
  });

  it("an altered ciphertext is detected (GCM tag), not decrypted into garbage", () => {
    const path = vaultPath();
    SaltVault.open(path, "pass").put(entry(1));
    const file = JSON.parse(readFileSync(path, "utf8"));
    file.ciphertext = (file.ciphertext[0] === "0" ? "1" : "0") + file.ciphertext.slice(1);
    writeFileSync(path, JSON.stringify(file));
    expect(() => SaltVault.open(path, "pass")).to.throw(VaultPassphraseError, /or the file was altered/);
  });

  it("a plain vault opened with a passphrase says so instead of re-encrypting silently", () => {
    const path = vaultPath();
    SaltVault.open(path).put(entry(1));
    expect(() => SaltVault.open(path, "pass")).to.throw(VaultPassphraseError, /is not encrypted/);
  });

  it("an unreadable file is reported as corrupt, with what to do", () => {
    const path = vaultPath();
    SaltVault.open(path).put(entry(1));
    writeFileSync(path, "{ half a json");
    expect(() => SaltVault.open(path)).to.throw(VaultCorruptError, /restore it from a backup/);
    writeFileSync(path, JSON.stringify({ format: "other" }));
    expect(() => SaltVault.open(path)).to.throw(VaultCorruptError, /unknown format other/);
  });

  it("remove forgets an entry durably", () => {
    const path = vaultPath();
    const vault = SaltVault.open(path);
    vault.put(entry(1));
    vault.remove(entry(1).commitment);
    expect(SaltVault.open(path).list()).to.deep.equal([]);
  });
});
