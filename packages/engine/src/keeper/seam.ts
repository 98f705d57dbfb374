import type { Hex32 } from "@augur/scorer";

/** The log's head at one moment: what the keeper anchors. */
export interface LogHead {
  readonly treeSize: number;
  readonly root: Hex32;
}

/** A head mined in AnchorRegistry with the configured confirmations. */
export interface AnchorReceipt {
  readonly anchorIndex: number;
  readonly treeSize: number;
  readonly root: Hex32;
  readonly chainId: number;
  readonly registry: string;
  readonly txHash: Hex32;
  readonly blockNumber: number;
  readonly blockHash: Hex32;
  /** Block timestamp, unix seconds. */
  readonly anchoredAt: number;
}

/**
 * Posts log heads to AnchorRegistry (keeper/keeper.ts). Must be idempotent: asked
 * twice for the same head it posts at most once (it first asks the chain what is posted).
 */
export interface Keeper {
  /**
   * Makes sure `head` is anchored: returns its receipt once mined with the configured
   * confirmations, or undefined while the transaction is still pending (the next cycle asks again).
   * `previous` is the last head the store knows as anchored (the consistency proof starts there).
   */
  anchor(head: LogHead, previous: AnchorReceipt | undefined): Promise<AnchorReceipt | undefined>;
  /**
   * Run at the start of every pass, before the stored anchors are consulted: finishes what a
   * crash left (an open nonce, a mined anchor whose row is not stored yet). "pending" while a
   * transaction is still unmined after the keeper's wait (the pass then stops there).
   */
  catchUp?(): Promise<"pending" | "settled">;
}
