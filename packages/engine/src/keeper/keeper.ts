import type { JsonRpcProvider, Wallet } from "ethers";
import type { Hex32 } from "@augur/scorer";
import type { AnchorReceipt, Keeper, LogHead } from "./seam";
import type { Store } from "../store/open";
import { anchorEventTx, hasAnchorOfSize } from "../store/queries/anchors";
import { recordAnchor } from "./anchor-head";
import { anchorRegistry } from "../chain/abi/anchor-registry";
import { storedConsistencyProof } from "./consistency";
import { KeeperDivergedError, KeeperSimulationError, KeeperUnauthorizedError } from "./errors";
import {
  lastMined,
  minedFor,
  minedTxFor,
  type JournalScope,
  type Step,
} from "../store/queries/keeper-journal";
import { JournalSender } from "./sender";
import { decodeRegistryError, RegistryReader, type ChainHead } from "./registry";

export interface ChainKeeperOptions {
  readonly store: Store;
  readonly provider: JsonRpcProvider;
  readonly signer: Wallet;
  readonly registry: RegistryReader;
  /** Blocks a post must be buried under before it counts as anchored (1 = mined). */
  readonly confirmations: number;
  /** Seconds a transaction may sit unmined before it is replaced with higher fees. */
  readonly replaceAfterSeconds: number;
  /** How long one `anchor` call waits for its transaction before answering "pending". */
  readonly waitMs: number;
  readonly pollMs: number;
  /** Unix seconds (journal timestamps and the replacement clock). */
  readonly now: () => number;
  readonly progress?: (line: string) => void;
}

/** Where one `anchor` call left its head. */
type Posted =
  | { readonly kind: "anchored"; readonly receipt: AnchorReceipt }
  | { readonly kind: "unconfirmed" }
  | { readonly kind: "absent"; readonly chain: ChainHead };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Anchors log heads in AnchorRegistry, one head per transaction, safely across crashes.
 *
 * - Idempotent: the chain is asked first; a head already posted is recorded, never re-posted.
 * - No nonce gap, no double spend, no stuck post: `post` is simulated first, then sent under the
 *   account's journal (keeper/sender.ts: one open nonce per account, journalled before broadcast,
 *   finished after a restart, replaced with higher fees when stuck), shared with the settler.
 */
export class ChainKeeper implements Keeper {
  private readonly scope: JournalScope;
  private readonly sender: JournalSender;

  constructor(private readonly options: ChainKeeperOptions) {
    this.sender = new JournalSender({ ...options, chainId: options.registry.chainId });
    this.scope = { ...this.sender.scope, registry: options.registry.address.toLowerCase() };
  }

  private say(line: string): void {
    this.options.progress?.(line);
  }

  /**
   * The start of every pass, whether or not the log grew: closes a nonce a crash left open and
   * stores the anchor row of the newest head the journal saw mined, so after any restart the
   * journal and the anchors table both say what the chain says.
   */
  async catchUp(): Promise<"pending" | "settled"> {
    const closed = await this.sender.finishOpen(Date.now() + this.options.waitMs);
    if (closed.kind === "pending") return "pending";
    const mined = await lastMined(this.options.store.db, this.scope);
    if (mined) await this.recordMined(mined);
    return "settled";
  }

  /** Stores the anchor row of a head the journal saw mined, unless stored already. */
  private async recordMined(head: { treeSize: number; root: string }): Promise<void> {
    const { store, now } = this.options;
    if (await hasAnchorOfSize(store.db, head.treeSize)) return;
    const posted = await this.posted({ treeSize: head.treeSize, root: head.root as Hex32 });
    if (posted.kind === "anchored") await recordAnchor(store, posted.receipt, now());
  }

  async anchor(head: LogHead): Promise<AnchorReceipt | undefined> {
    const deadline = Date.now() + this.options.waitMs;
    // Each round closes one nonce, posts one head or finds it posted; four rounds cover "finish
    // what a crash left, post ours, see it mined, read its receipt" within one call.
    for (let round = 0; round < 4; round++) {
      const closed = await this.sender.finishOpen(deadline);
      if (closed.kind === "pending") return undefined;
      if (closed.kind === "closed") {
        // Its row now, not when some later pass asks for this head again.
        if (closed.status === "mined" && closed.tx.action === "post") await this.recordMined(closed.tx);
        continue;
      }
      const posted = await this.posted(head);
      if (posted.kind === "anchored") {
        if (!(await minedFor(this.options.store.db, this.scope, posted.receipt.treeSize))) {
          await this.step({
            status: "skipped",
            treeSize: posted.receipt.treeSize,
            root: posted.receipt.root,
          });
          this.say(
            `head ${posted.receipt.treeSize} is already on chain (index ${posted.receipt.anchorIndex})`,
          );
        }
        return posted.receipt;
      }
      if (posted.kind === "unconfirmed") {
        if (Date.now() >= deadline) return undefined;
        await sleep(this.options.pollMs);
        continue;
      }
      await this.post(head, posted.chain);
    }
    return undefined;
  }

  private async step(step: Step): Promise<void> {
    await this.sender.step(this.scope.registry, step);
  }

  /** What the chain holds for `head`: its receipt, a post not yet confirmed, or nothing yet. */
  private async posted(head: LogHead): Promise<Posted> {
    const { registry, store, confirmations } = this.options;
    const chain = await registry.head();
    if (chain.treeSize < head.treeSize) return { kind: "absent", chain };
    let size = head.treeSize;
    if ((await registry.rootOf(size)) !== head.root) {
      // The chain is past this head: only fine if the log has the chain's head too (a caller
      // holding an older head); anything else means the two histories differ.
      const localSize = await store.log.size(store.db);
      if (chain.treeSize > localSize || (await store.log.root(store.db, chain.treeSize)) !== chain.root) {
        throw new KeeperDivergedError(`the registry's head ${chain.treeSize} is not in the local log`, {
          treeSize: chain.treeSize,
          root: chain.root,
        });
      }
      size = chain.treeSize;
    }
    const index = await registry.indexOf(size);
    // Where the post is known (our journal, or the indexer's events), read its receipt; a log
    // search from the start block is the last resort (providers cap eth_getLogs ranges).
    const known =
      (await minedTxFor(store.db, this.scope, size)) ??
      (await anchorEventTx(store.db, { chainId: this.scope.chainId, address: this.scope.registry }, index));
    const found =
      (known ? await registry.receiptOfTx(index, known) : undefined) ?? (await registry.receiptOf(index));
    if (!found || found.confirmations < confirmations) return { kind: "unconfirmed" };
    return { kind: "anchored", receipt: found.receipt };
  }

  /** Simulates, then has the sender reserve a nonce, sign, journal and broadcast: one transaction for one head. */
  private async post(head: LogHead, chain: ChainHead): Promise<void> {
    const { store, provider, signer, registry } = this.options;
    if (chain.count > 0 && (await store.log.root(store.db, chain.treeSize)) !== chain.root) {
      throw new KeeperDivergedError(`the registry's head ${chain.treeSize} has another root than the log`, {
        treeSize: chain.treeSize,
        root: chain.root,
      });
    }
    const proof =
      chain.count === 0 ? [] : (await storedConsistencyProof(store, chain.treeSize, head.treeSize)).proof;
    const data = anchorRegistry.encodeFunctionData("post", [head.treeSize, head.root, proof]);

    let gas: bigint;
    try {
      gas = await provider.estimateGas({ from: signer.address, to: registry.address, data });
    } catch (error) {
      await this.refused(head, error);
      return; // already posted by someone else: the next round finds it
    }
    const purpose = {
      to: this.scope.registry,
      action: "post",
      treeSize: head.treeSize,
      root: head.root,
    } as const;
    await this.sender.send(purpose, data, gas); // false: another keeper won the nonce; the next round sees it
  }

  /** Turns a failed simulation into the keeper's decision: done, diverged, or a typed error. */
  private async refused(head: LogHead, error: unknown): Promise<void> {
    const decoded = decodeRegistryError(error);
    const reason = decoded?.name ?? (error instanceof Error ? error.message : String(error));
    await this.step({
      status: "failed",
      treeSize: head.treeSize,
      root: head.root,
      error: `simulation: ${reason}`,
    });
    switch (decoded?.name) {
      case "AnchorRegistryAlreadyPosted":
        return;
      case "AnchorRegistryConflictingRoot":
      case "AnchorRegistryInconsistentHead":
      case "AnchorRegistryTreeSizeDecreased":
        throw new KeeperDivergedError(`the registry refuses head ${head.treeSize} (${decoded.name})`, {
          treeSize: head.treeSize,
          root: head.root,
        });
      case "AccessControlUnauthorizedAccount":
        throw new KeeperUnauthorizedError(this.scope.sender);
      default:
        throw new KeeperSimulationError(head.treeSize, reason);
    }
  }
}
