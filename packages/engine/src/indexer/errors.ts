import { AugurError } from "@augur/scorer";

/**
 * A block the indexer had already treated as final (its events promoted into the append-only
 * anchors table) is no longer on the chain: the reorg was deeper than the configured
 * confirmations, and a person must look at it.
 */
export class ReorgTooDeepError extends AugurError {
  override readonly name = "ReorgTooDeepError";
  /** `what`: the final thing that relied on the block (an anchor, a sealed stewardship day). */
  constructor(blockNumber: number, confirmations: number, what = "its anchor") {
    super(
      "REORG_TOO_DEEP",
      `block ${blockNumber} was reorganised after ${what} was recorded with ${confirmations} confirmations`,
      { blockNumber, confirmations },
    );
  }
}

/** Bad indexer configuration. */
export class IndexerConfigError extends AugurError {
  override readonly name = "IndexerConfigError";
  constructor(problem: string) {
    super("INDEXER_CONFIG", problem);
  }
}
