import { readFileSync } from "node:fs";
import { Wallet } from "ethers";
import { KeeperConfigError } from "./errors";

export interface SignerSource {
  /** `KEEPER_PRIVATE_KEY`: 0x + 64 hex. Environment only, so it never shows in `ps`. */
  readonly privateKey?: string;
  /** An encrypted JSON keystore (Web3 secret storage) file... */
  readonly keystore?: string;
  /** ...and its password, from `KEEPER_KEYSTORE_PASSWORD`. */
  readonly password?: string;
}

/**
 * The keeper's signing key, from exactly one source. Never from the repository: the key lives in
 * the environment or in an encrypted keystore the operator points at.
 */
export async function loadSigner(source: SignerSource): Promise<Wallet> {
  const { privateKey, keystore, password } = source;
  if (privateKey && keystore) {
    throw new KeeperConfigError("give either KEEPER_PRIVATE_KEY or --keystore, not both");
  }
  if (privateKey) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey.trim())) {
      throw new KeeperConfigError("KEEPER_PRIVATE_KEY must be 0x followed by 64 hex digits");
    }
    try {
      return new Wallet(privateKey.trim());
    } catch {
      throw new KeeperConfigError("KEEPER_PRIVATE_KEY is not a valid secp256k1 private key");
    }
  }
  if (keystore) {
    if (password === undefined) {
      throw new KeeperConfigError("--keystore needs its password in KEEPER_KEYSTORE_PASSWORD");
    }
    let text: string;
    try {
      text = readFileSync(keystore, "utf8");
    } catch (error) {
      throw new KeeperConfigError(`cannot read keystore ${keystore}: ${(error as Error).message}`, {
        keystore,
      });
    }
    try {
      const wallet = await Wallet.fromEncryptedJson(text, password);
      return new Wallet(wallet.privateKey);
    } catch {
      // Same message for a wrong password and a damaged file: neither leaks which it was.
      throw new KeeperConfigError(`cannot decrypt keystore ${keystore} (wrong password or not a keystore)`, {
        keystore,
      });
    }
  }
  throw new KeeperConfigError("no keeper key: set KEEPER_PRIVATE_KEY or pass --keystore");
}
