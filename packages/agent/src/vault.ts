import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { VaultCorruptError, VaultEntryExistsError, VaultPassphraseError } from "./errors";

const FORMAT = "augur-salt-vault/v1";
const ENCRYPTED_FORMAT = "augur-salt-vault/v1+scrypt-aes-256-gcm";
// 2^15 × 8 × 128 bytes = 32 MiB of scrypt memory: slow to brute-force, still ~0.1 s per open.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** Where a call is in its life, as far as this vault knows. */
export type VaultState = "prepared" | "committed" | "revealed" | "settled" | "expired";

/**
 * One call's secret and what is known of it on chain. Written before the commit transaction is
 * sent (state `prepared`), so the salt survives any crash after that point.
 */
export interface VaultEntry {
  readonly commitment: string;
  readonly chainId: number;
  readonly ledger: string;
  readonly agent: string;
  readonly asset: string;
  readonly window: number;
  readonly direction: number;
  readonly confidenceBps: number;
  readonly salt: string;
  readonly preparedAt: number;
  /** The chain's latest block when the entry was written: where a lost commit is searched from. */
  readonly preparedBlock?: number;
  state: VaultState;
  /** Decimal string: call ids are 256-bit. */
  callId?: string;
  commitTx?: string;
  committedAt?: number;
  committedBlock?: number;
  closesAt?: number;
  outcome?: string;
}

interface PlainFile {
  format: typeof FORMAT;
  entries: Record<string, VaultEntry>;
}

interface EncryptedFile {
  format: typeof ENCRYPTED_FORMAT;
  kdf: { N: number; r: number; p: number; salt: string };
  iv: string;
  tag: string;
  ciphertext: string;
}

/**
 * The salt vault: a JSON file of commitment → entry. Every change rewrites the whole file through
 * a temporary file, fsync and rename, so a reader (or a crash) sees the old file or the new one,
 * never half of one. The file is created 0600. With a passphrase the entries are sealed with
 * AES-256-GCM under a scrypt key (the GCM tag also detects any tampering).
 */
export class SaltVault {
  private entries: Record<string, VaultEntry>;
  private readonly key: Buffer | undefined;
  private readonly kdfSalt: Buffer | undefined;

  private constructor(
    readonly path: string,
    entries: Record<string, VaultEntry>,
    key?: Buffer,
    kdfSalt?: Buffer,
  ) {
    this.entries = entries;
    this.key = key;
    this.kdfSalt = kdfSalt;
  }

  /** Opens (or starts) the vault at `path`; a passphrase encrypts it, and is needed to reopen it. */
  static open(path: string, passphrase?: string): SaltVault {
    if (!existsSync(path)) {
      if (passphrase === undefined || passphrase === "") return new SaltVault(path, {});
      const kdfSalt = randomBytes(16);
      return new SaltVault(path, {}, deriveKey(passphrase, kdfSalt), kdfSalt);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new VaultCorruptError(path, (error as Error).message);
    }
    const format = (parsed as { format?: unknown }).format;
    if (format === FORMAT) {
      if (passphrase) {
        throw new VaultPassphraseError(path, "is not encrypted: unset AUGUR_VAULT_PASSPHRASE to open it");
      }
      return new SaltVault(path, (parsed as PlainFile).entries);
    }
    if (format !== ENCRYPTED_FORMAT) throw new VaultCorruptError(path, `unknown format ${String(format)}`);
    if (!passphrase) {
      throw new VaultPassphraseError(path, "is encrypted: set AUGUR_VAULT_PASSPHRASE to open it");
    }
    const file = parsed as EncryptedFile;
    const kdfSalt = Buffer.from(file.kdf.salt, "hex");
    const key = deriveKey(passphrase, kdfSalt, file.kdf);
    let plaintext: string;
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(file.iv, "hex"));
      decipher.setAuthTag(Buffer.from(file.tag, "hex"));
      plaintext = Buffer.concat([
        decipher.update(Buffer.from(file.ciphertext, "hex")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new VaultPassphraseError(path, "wrong passphrase, or the file was altered");
    }
    return new SaltVault(path, JSON.parse(plaintext) as Record<string, VaultEntry>, key, kdfSalt);
  }

  get encrypted(): boolean {
    return this.key !== undefined;
  }

  get(commitment: string): VaultEntry | undefined {
    const entry = this.entries[commitment.toLowerCase()];
    return entry && { ...entry };
  }

  findByCallId(callId: bigint): VaultEntry | undefined {
    const id = callId.toString();
    const entry = Object.values(this.entries).find((e) => e.callId === id);
    return entry && { ...entry };
  }

  /** Every entry, oldest first. */
  list(): VaultEntry[] {
    return Object.values(this.entries)
      .map((e) => ({ ...e }))
      .sort((a, b) => a.preparedAt - b.preparedAt);
  }

  /** Entries still needing a transaction (commit unconfirmed, reveal, or settle). */
  open(): VaultEntry[] {
    return this.list().filter(
      (e) => e.state === "prepared" || e.state === "committed" || e.state === "revealed",
    );
  }

  /** Adds a new entry and writes the file before returning: call this before sending the commit. */
  put(entry: VaultEntry): void {
    const key = entry.commitment.toLowerCase();
    if (this.entries[key]) throw new VaultEntryExistsError(this.path, key);
    this.entries = { ...this.entries, [key]: { ...entry, commitment: key } };
    this.save();
  }

  /** Merges `changes` into an entry and writes the file. */
  update(commitment: string, changes: Partial<VaultEntry>): VaultEntry {
    const key = commitment.toLowerCase();
    const current = this.entries[key];
    if (!current) throw new VaultCorruptError(this.path, `commitment ${key} is not in the vault`);
    const next = { ...current, ...changes, commitment: key };
    this.entries = { ...this.entries, [key]: next };
    this.save();
    return { ...next };
  }

  /** Forgets an entry whose commit never reached the chain (its salt was never used). */
  remove(commitment: string): void {
    const rest = { ...this.entries };
    delete rest[commitment.toLowerCase()];
    this.entries = rest;
    this.save();
  }

  private save(): void {
    const body: PlainFile | EncryptedFile = this.key
      ? this.seal(this.key)
      : { format: FORMAT, entries: this.entries };
    writeAtomically(this.path, `${JSON.stringify(body, null, 2)}\n`);
  }

  private seal(key: Buffer): EncryptedFile {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(this.entries), "utf8"), cipher.final()]);
    return {
      format: ENCRYPTED_FORMAT,
      kdf: { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, salt: this.kdfSalt!.toString("hex") },
      iv: iv.toString("hex"),
      tag: cipher.getAuthTag().toString("hex"),
      ciphertext: ciphertext.toString("hex"),
    };
  }
}

function deriveKey(
  passphrase: string,
  salt: Buffer,
  params: { N: number; r: number; p: number } = SCRYPT,
): Buffer {
  return scryptSync(passphrase, salt, 32, { N: params.N, r: params.r, p: params.p, maxmem: SCRYPT.maxmem });
}

/** temp file (0600) → fsync → rename over the target → fsync the directory. */
export function writeAtomically(path: string, text: string): void {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  // The rename itself is durable only once the directory entry is flushed.
  const dirFd = openSync(directory, "r");
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
