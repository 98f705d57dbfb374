import { AugurError } from "@augur/scorer";

/** The keeper reported an anchor that contradicts the store (another head at that index, or a root the log does not have). */
export class AnchorMismatchError extends AugurError {
  override readonly name = "AnchorMismatchError";
  constructor(anchorIndex: number, problem: string) {
    super("ANCHOR_MISMATCH", `anchor ${anchorIndex}: ${problem}`, { anchorIndex });
  }
}
