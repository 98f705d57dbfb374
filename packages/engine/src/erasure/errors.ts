import { RecordRefusedError } from "@augur/records";

/** A refused text post or erasure: an HTTP status for the API, one line for `augur erase`. */
export class ErasureRefusedError extends RecordRefusedError {
  override readonly name = "ErasureRefusedError";
}
