import {
  checkScorable,
  isRegistration,
  normalizeMessage,
  RECORD_KIND,
  RECORD_TYPE_NAMES,
  recoverSigner,
  sealedRecord,
  sealRecord,
  type NormalizedMessage,
  type RecordTypeName,
} from "@augur/records";
import { InvalidInputError, type Hex32 } from "@augur/scorer";
import type { RecordKind } from "../store/schema";
import { recoverWallet, type WalletProof } from "./wallet";

/** What an agent posts: one EIP-712 message of a record type, with its signature(s). */
export interface Submission {
  readonly type: string;
  readonly message: unknown;
  readonly signature: unknown;
  /** Registration only: the creator's signature of the same typed data. */
  readonly creatorSignature?: unknown;
  /** RegistrationV2 only: the bound wallet's signature of the same typed data (or its EIP-1271 proof). */
  readonly walletSignature?: unknown;
}

/** A record that passed every check that needs no store: its type, kind and normal form. */
export interface CheckedRecord {
  readonly type: RecordTypeName;
  readonly kind: RecordKind;
  readonly message: NormalizedMessage;
  /**
   * Its seal and canonical body under the chain id it was checked for, when the check made them
   * (`checkSubmission`: an ingest worker or the record writer thread, so the store's side only
   * writes); the store seals a record that comes without.
   */
  readonly sealed?: { readonly chainId: number; readonly seal: Hex32; readonly body: string };
}

/** Who signed a checked record (recovered from its signatures) and the signatures as stored. */
export interface RecordSigners {
  readonly signer: string;
  readonly cosigner?: string;
  readonly signature: string;
  readonly cosignature?: string;
  /** RegistrationV2: how the wallet proved it agreed, and its signature as stored. */
  readonly walletProof?: WalletProof;
  readonly walletSignature?: string;
}

/**
 * A submission with every check done that needs neither the store nor the chain. Plain data
 * (it crosses from an ingest worker to the main thread): a RegistrationV2's `walletRecovered`
 * is what its wallet signature recovers to, which the chain may still have to confirm.
 */
export interface CheckedSubmission {
  readonly record: CheckedRecord;
  readonly signers: Omit<RecordSigners, "walletProof">;
  readonly walletRecovered?: string;
}

function recordType(type: unknown): RecordTypeName {
  if (typeof type !== "string" || !(RECORD_TYPE_NAMES as readonly string[]).includes(type)) {
    throw new InvalidInputError("type", `must be one of ${RECORD_TYPE_NAMES.join(", ")}`);
  }
  return type as RecordTypeName;
}

/**
 * Every check of one record that needs neither the store nor a signature: its type, every field
 * (normal form) and the scorer's own rule for such a record, so nothing it would refuse gets in.
 */
export function checkRecord(type: unknown, message: unknown): CheckedRecord {
  const name = recordType(type);
  const normal = normalizeMessage(name, message);
  checkScorable(name, normal);
  return { type: name, kind: RECORD_KIND[name], message: normal };
}

/** A Registration's creator, recovered from its `creatorSignature`, and that signature as stored. */
export function recoverCosigner(
  submission: Submission,
  { type, message }: CheckedRecord,
  chainId: number,
): Pick<RecordSigners, "cosigner" | "cosignature"> {
  return {
    cosigner: recoverSigner("creatorSignature", type, chainId, message, submission.creatorSignature),
    cosignature: (submission.creatorSignature as string).toLowerCase(),
  };
}

/**
 * The CPU-bound half of ingestion, pure and synchronous (an ingest worker runs it): the record's
 * fields, which signatures it may carry, and the address each signature recovers to. When a
 * wallet signature needs the chain (EIP-1271), the creator's is left to after that check, so a
 * refusal names the same field as before the pool existed.
 */
export function checkSubmission(submission: Submission, chainId: number): CheckedSubmission {
  const { type, kind, message } = checkRecord(submission.type, submission.message);
  const record: CheckedRecord = {
    type,
    kind,
    message,
    sealed: { chainId, ...sealRecord(sealedRecord(type, chainId, message)) },
  };
  const registering = isRegistration(type);
  if (!registering && submission.creatorSignature !== undefined) {
    throw new InvalidInputError("creatorSignature", "is only for a Registration");
  }
  if (type !== "RegistrationV2" && submission.walletSignature !== undefined) {
    throw new InvalidInputError("walletSignature", "is only for a RegistrationV2");
  }
  const signer = recoverSigner("signature", type, chainId, message, submission.signature);
  const signature = (submission.signature as string).toLowerCase();
  if (type !== "RegistrationV2") {
    return {
      record,
      signers: { signer, signature, ...(registering ? recoverCosigner(submission, record, chainId) : {}) },
    };
  }
  const walletRecovered = recoverWallet(chainId, message, submission.walletSignature);
  const walletSignature = (submission.walletSignature as string).toLowerCase();
  const cosigned = walletRecovered === message.wallet ? recoverCosigner(submission, record, chainId) : {};
  return { record, signers: { signer, signature, walletSignature, ...cosigned }, walletRecovered };
}
