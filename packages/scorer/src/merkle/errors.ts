import { AugurError } from "../errors";

/**
 * A proof that cannot be checked as given: wrong length, a consistency proof whose old root does
 * not match, a hash that is not 32 bytes. Verifiers that return a boolean never throw it.
 */
export class MerkleProofError extends AugurError {
  override readonly name = "MerkleProofError";
  readonly reason: string;

  constructor(reason: string, details: Record<string, unknown> = {}) {
    super("MERKLE_PROOF", `invalid Merkle proof: ${reason}`, { reason, ...details });
    this.reason = reason;
  }
}

/** A leaf index or tree size outside the log (or outside the tree the proof is about). */
export class MerkleRangeError extends AugurError {
  override readonly name = "MerkleRangeError";

  constructor(message: string, details: Record<string, unknown> = {}) {
    super("MERKLE_RANGE", message, details);
  }
}
