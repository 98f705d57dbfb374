import { Transaction, keccak256, type JsonRpcProvider, type Wallet } from "ethers";
import type { Hex32 } from "@augur/scorer";
import type { AnchorReceipt, Keeper, LogHead } from "./seam";
import type { Store } from "../store/open";
import { isUniqueViolation } from "../store/errors";
import { anchorEventTx, hasAnchorOfSize } from "../store/queries/anchors";
import { recordAnchor } from "./anchor-head";
import { anchorRegistry } from "../chain/abi/anchor-registry";
import { storedConsistencyProof } from "./consistency";
import { crashPoint } from "./crash";
import {
  KeeperDivergedError,
  KeeperNonceError,
  KeeperSimulationError,
  KeeperUnauthorizedError,
} from "./errors";
import { bumpFees, currentFees } from "./fees";
import {
  appendStep,
  lastClosedNonce,
  lastMined,
  minedFor,
  minedTxFor,
  openNonce,
  type JournalScope,
  type SignedTx,
} from "../store/queries/keeper-journal";
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
 * - No nonce gap, no double spend: at most one nonce is open at a time. A nonce is reserved in
 *   the journal (unique per sender) only after `post` simulated cleanly, the signed transaction
 *   is written before it is broadcast, and a restart finishes the open nonce (the recorded raw
 *   transaction is rebroadcast, or found mined) before it reserves the next one.
 * - Stuck transactions are replaced at the same nonce with both fee caps raised ≥ 12.5 %.
 */
export class ChainKeeper implements Keeper {
  private readonly scope: JournalScope;

  constructor(private readonly options: ChainKeeperOptions) {
    this.scope = {
      chainId: options.registry.chainId,
      registry: options.registry.address.toLowerCase(),
      sender: options.signer.address.toLowerCase(),
    };
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
    const { store, waitMs } = this.options;
    const open = await openNonce(store.db, this.scope);
    if (open && (await this.settle(open.nonce, open.txs, Date.now() + waitMs)) === "pending")
      return "pending";
    const mined = await lastMined(store.db, this.scope);
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
      const open = await openNonce(this.options.store.db, this.scope);
      if (open) {
        if ((await this.settle(open.nonce, open.txs, deadline)) === "pending") return undefined;
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

  private async step(step: Parameters<typeof appendStep>[2]): Promise<void> {
    await appendStep(this.options.store.db, this.scope, step, this.options.now());
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

  /** Simulates, reserves a nonce, signs, journals, broadcasts: one transaction for one head. */
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
    await this.step({ status: "simulated", treeSize: head.treeSize, root: head.root });

    const nonce = await provider.getTransactionCount(signer.address, "latest");
    const used = await lastClosedNonce(store.db, this.scope);
    if (used >= nonce) {
      // The chain forgot a transaction the journal saw mined (a reorg deeper than the
      // confirmations?): signing at `nonce` could double-spend it. A person must look.
      throw new KeeperNonceError(`the journal saw nonce ${used} mined but the account's nonce is ${nonce}`, {
        nonce,
        used,
      });
    }
    const fees = await currentFees(provider);
    const signed = await this.sign(head.treeSize, head.root, nonce, data, gas + gas / 5n, fees);
    try {
      await store.db.transaction().execute(async (trx) => {
        await store.log.lockForAppend(trx); // the store's one writer lock: one reservation at a time
        if (await openNonce(trx, this.scope)) throw new ReservedMeanwhile();
        await appendStep(trx, this.scope, { status: "signed", ...signedStep(signed) }, signed.signedAt);
      });
    } catch (error) {
      if (error instanceof ReservedMeanwhile || isUniqueViolation(error)) return; // another keeper won
      throw error;
    }
    this.say(`head ${head.treeSize}: signed ${signed.txHash} at nonce ${nonce}`);
    crashPoint("signed");
    await this.broadcast(signed);
  }

  private async sign(
    treeSize: number,
    root: string,
    nonce: number,
    data: string,
    gasLimit: bigint,
    fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ): Promise<SignedTx> {
    const { signer, registry } = this.options;
    const rawTx = await signer.signTransaction({
      type: 2,
      chainId: registry.chainId,
      nonce,
      to: registry.address,
      data,
      value: 0n,
      gasLimit,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return {
      treeSize,
      root,
      nonce,
      rawTx,
      txHash: keccak256(rawTx),
      gasLimit,
      ...fees,
      signedAt: this.options.now(),
    };
  }

  /** Hands a recorded transaction to the node; "already known" and the like are success. */
  private async broadcast(tx: SignedTx): Promise<void> {
    try {
      await this.options.provider.send("eth_sendRawTransaction", [tx.rawTx]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!/already known|known transaction|nonce too low|already imported|already in/i.test(message)) {
        // Not in the mempool: the nonce stays open and the next call sends the same bytes again.
        await this.step({
          status: "failed",
          treeSize: tx.treeSize,
          root: tx.root,
          txHash: tx.txHash,
          error: message,
        });
        this.say(`broadcast of ${tx.txHash} failed: ${message}`);
        return;
      }
    }
    crashPoint("broadcast");
    await this.step({
      status: "broadcast",
      treeSize: tx.treeSize,
      root: tx.root,
      nonce: tx.nonce,
      txHash: tx.txHash,
    });
  }

  /**
   * Drives the open nonce to a close: finds which of its transactions was mined (waiting for the
   * confirmations), rebroadcasts the newest if the node lost it, and replaces it with higher fees
   * once it has waited `replaceAfterSeconds`.
   */
  private async settle(nonce: number, txs: SignedTx[], deadline: number): Promise<"closed" | "pending"> {
    const { provider, signer, confirmations } = this.options;
    let resent = false;
    for (;;) {
      crashPoint("receipt");
      let buried = false;
      for (const tx of [...txs].reverse()) {
        const receipt = await provider.getTransactionReceipt(tx.txHash);
        if (!receipt) continue;
        const latest = await this.options.registry.blockNumber();
        if (latest - receipt.blockNumber + 1 < confirmations) {
          buried = true; // mined, not yet under enough blocks: only wait
          break;
        }
        await this.options.store.db.transaction().execute(async (trx) => {
          for (const other of txs) {
            if (other.txHash === tx.txHash) continue;
            await appendStep(trx, this.scope, { status: "replaced", ...ref(other) }, this.options.now());
          }
          await appendStep(
            trx,
            this.scope,
            {
              status: receipt.status === 1 ? "mined" : "reverted",
              ...ref(tx),
              blockNumber: receipt.blockNumber,
            },
            this.options.now(),
          );
        });
        this.say(
          `head ${tx.treeSize}: ${tx.txHash} ${receipt.status === 1 ? "mined" : "reverted"} in block ${receipt.blockNumber}`,
        );
        // Its row now, not when some later pass asks for this head again.
        if (receipt.status === 1) await this.recordMined(tx);
        return "closed";
      }
      if (buried) {
        if (Date.now() >= deadline) return "pending";
        await sleep(this.options.pollMs);
        continue;
      }
      const used = await provider.getTransactionCount(signer.address, "latest");
      if (used > nonce && !(await this.anyKnown(txs))) {
        // None of ours was mined at this nonce, yet the chain used it: the key signed elsewhere.
        await this.step({
          status: "failed",
          treeSize: txs[0]!.treeSize,
          root: txs[0]!.root,
          nonce,
          error: "nonce used by a transaction the keeper did not sign",
        });
        throw new KeeperNonceError(`nonce ${nonce} was used by a transaction the keeper did not sign`, {
          nonce,
        });
      }
      const newest = txs[txs.length - 1]!;
      if (used <= nonce && this.options.now() - newest.signedAt >= this.options.replaceAfterSeconds) {
        const fees = bumpFees(newest, await currentFees(provider));
        const data = Transaction.from(newest.rawTx).data;
        const replacement = await this.sign(newest.treeSize, newest.root, nonce, data, newest.gasLimit, fees);
        await this.step({ status: "signed", ...signedStep(replacement), replaces: newest.txHash });
        this.say(
          `head ${newest.treeSize}: ${newest.txHash} stuck; replacing at nonce ${nonce} with ` +
            `maxFeePerGas ${fees.maxFeePerGas}, tip ${fees.maxPriorityFeePerGas}`,
        );
        crashPoint("signed");
        await this.broadcast(replacement);
        txs = [...txs, replacement];
        resent = true;
      } else if (!resent) {
        await this.broadcast(newest); // after a restart the node may never have seen it
        resent = true;
      }
      if (Date.now() >= deadline) return "pending";
      await sleep(this.options.pollMs);
    }
  }

  /** Whether any of these transactions has a receipt (a race with the nonce read above). */
  private async anyKnown(txs: SignedTx[]): Promise<boolean> {
    for (const tx of txs) if (await this.options.provider.getTransactionReceipt(tx.txHash)) return true;
    return false;
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

class ReservedMeanwhile extends Error {}

function ref(tx: SignedTx) {
  return { treeSize: tx.treeSize, root: tx.root, nonce: tx.nonce, txHash: tx.txHash };
}

function signedStep(tx: SignedTx) {
  return {
    ...ref(tx),
    rawTx: tx.rawTx,
    gasLimit: tx.gasLimit,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
  };
}
