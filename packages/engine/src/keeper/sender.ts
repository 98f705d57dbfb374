import { Transaction, keccak256, type JsonRpcProvider, type Wallet } from "ethers";
import type { Store } from "../store/open";
import { isUniqueViolation } from "../store/errors";
import { crashPoint } from "./crash";
import { KeeperNonceError } from "./errors";
import { bumpFees, currentFees, type Fees } from "./fees";
import {
  appendStep,
  lastClosedNonce,
  openNonce,
  type SenderScope,
  type SignedTx,
  type Step,
  type TxPurpose,
} from "../store/queries/keeper-journal";

export interface SenderOptions {
  readonly store: Store;
  readonly provider: JsonRpcProvider;
  readonly signer: Wallet;
  readonly chainId: number;
  /** Blocks a transaction must be buried under before it counts, 1 = mined. */
  readonly confirmations: number;
  /** Seconds a transaction may sit unmined before it is replaced with higher fees. */
  readonly replaceAfterSeconds: number;
  readonly pollMs: number;
  /** Unix seconds (journal timestamps and the replacement clock). */
  readonly now: () => number;
  readonly progress?: (line: string) => void;
}

/** How the account's open nonce was closed. */
export type Closed =
  | { readonly kind: "none" }
  | { readonly kind: "pending" }
  | {
      readonly kind: "closed";
      readonly tx: SignedTx;
      readonly status: "mined" | "reverted";
      readonly gasUsed: bigint;
    };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A journal row's label in progress lines: the head it posts or the call it resolves. */
export const labelOf = (p: TxPurpose) =>
  p.action === "post" ? `head ${p.treeSize}` : `${p.action} ${p.callId}`;

/**
 * Sends the keeper account's transactions under its journal, whatever contract they call (the
 * anchor posts of keeper/keeper.ts, the settler's settle/expire calls):
 *
 * - No nonce gap, no double spend: at most one nonce of the account is open at a time. A nonce is
 *   reserved in the journal (unique per sender) only after the caller simulated the call cleanly,
 *   the signed transaction is written before it is broadcast, and `finishOpen` (a restart too)
 *   drives the open nonce to a close — the recorded raw transaction is rebroadcast, or found
 *   mined — before `send` reserves the next one.
 * - Stuck transactions are replaced at the same nonce with both fee caps raised ≥ 12.5 %.
 */
export class JournalSender {
  readonly scope: SenderScope;

  constructor(private readonly options: SenderOptions) {
    this.scope = { chainId: options.chainId, sender: options.signer.address.toLowerCase() };
  }

  private say(line: string): void {
    this.options.progress?.(line);
  }

  /** Appends one step of a transaction to `to` (the journal's rows are per target contract). */
  async step(to: string, step: Step): Promise<void> {
    await appendStep(this.options.store.db, { ...this.scope, registry: to }, step, this.options.now());
  }

  /** Drives the account's open nonce, if any, to a close before `deadline` (ms since the epoch). */
  async finishOpen(deadline: number): Promise<Closed> {
    const open = await openNonce(this.options.store.db, this.scope);
    if (!open) return { kind: "none" };
    return this.close(open.nonce, open.txs, deadline);
  }

  /**
   * Reserves the next nonce, signs `data` to `purpose.to`, journals and broadcasts it. Call only
   * after a clean simulation (`gas` is its estimate) and with no open nonce. Returns false when
   * another sender reserved a nonce meanwhile (nothing was sent; the caller finishes theirs first).
   */
  async send(purpose: TxPurpose, data: string, gas: bigint): Promise<boolean> {
    const { store, provider, signer } = this.options;
    await this.step(purpose.to, { status: "simulated", ...stepOf(purpose) });
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
    const signed = await this.sign(purpose, nonce, data, gas + gas / 5n, await currentFees(provider));
    try {
      await store.db.transaction().execute(async (trx) => {
        await store.log.lockForAppend(trx); // the store's one writer lock: one reservation at a time
        if (await openNonce(trx, this.scope)) throw new ReservedMeanwhile();
        await appendStep(
          trx,
          { ...this.scope, registry: purpose.to },
          { status: "signed", ...signedStep(signed) },
          signed.signedAt,
        );
      });
    } catch (error) {
      if (error instanceof ReservedMeanwhile || isUniqueViolation(error)) return false; // another sender won
      throw error;
    }
    this.say(`${labelOf(purpose)}: signed ${signed.txHash} at nonce ${nonce}`);
    crashPoint("signed");
    await this.broadcast(signed);
    return true;
  }

  private async sign(
    purpose: TxPurpose,
    nonce: number,
    data: string,
    gasLimit: bigint,
    fees: Fees,
  ): Promise<SignedTx> {
    const rawTx = await this.options.signer.signTransaction({
      type: 2,
      chainId: this.options.chainId,
      nonce,
      to: purpose.to,
      data,
      value: 0n,
      gasLimit,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return {
      ...purpose,
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
        await this.step(tx.to, { status: "failed", ...stepOf(tx), txHash: tx.txHash, error: message });
        this.say(`broadcast of ${tx.txHash} failed: ${message}`);
        return;
      }
    }
    crashPoint("broadcast");
    await this.step(tx.to, { status: "broadcast", ...ref(tx) });
  }

  /**
   * Drives the open nonce to a close: finds which of its transactions was mined (waiting for the
   * confirmations), rebroadcasts the newest if the node lost it, and replaces it with higher fees
   * once it has waited `replaceAfterSeconds`.
   */
  private async close(nonce: number, txs: SignedTx[], deadline: number): Promise<Closed> {
    const { provider, signer, confirmations, store } = this.options;
    let resent = false;
    for (;;) {
      crashPoint("receipt");
      let buried = false;
      for (const tx of [...txs].reverse()) {
        const receipt = await provider.getTransactionReceipt(tx.txHash);
        if (!receipt) continue;
        const latest = await provider.getBlockNumber();
        if (latest - receipt.blockNumber + 1 < confirmations) {
          buried = true; // mined, not yet under enough blocks: only wait
          break;
        }
        const status = receipt.status === 1 ? "mined" : "reverted";
        await store.db.transaction().execute(async (trx) => {
          for (const other of txs) {
            if (other.txHash === tx.txHash) continue;
            await appendStep(
              trx,
              { ...this.scope, registry: other.to },
              { status: "replaced", ...ref(other) },
              this.options.now(),
            );
          }
          await appendStep(
            trx,
            { ...this.scope, registry: tx.to },
            { status, ...ref(tx), blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed },
            this.options.now(),
          );
        });
        this.say(`${labelOf(tx)}: ${tx.txHash} ${status} in block ${receipt.blockNumber}`);
        return { kind: "closed", tx, status, gasUsed: receipt.gasUsed };
      }
      if (buried) {
        if (Date.now() >= deadline) return { kind: "pending" };
        await sleep(this.options.pollMs);
        continue;
      }
      const used = await provider.getTransactionCount(signer.address, "latest");
      if (used > nonce && !(await this.anyKnown(txs))) {
        // None of ours was mined at this nonce, yet the chain used it: the key signed elsewhere.
        await this.step(txs[0]!.to, {
          status: "failed",
          ...stepOf(txs[0]!),
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
        const replacement = await this.sign(newest, nonce, data, newest.gasLimit, fees);
        await this.step(newest.to, { status: "signed", ...signedStep(replacement), replaces: newest.txHash });
        this.say(
          `${labelOf(newest)}: ${newest.txHash} stuck; replacing at nonce ${nonce} with ` +
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
      if (Date.now() >= deadline) return { kind: "pending" };
      await sleep(this.options.pollMs);
    }
  }

  /** Whether any of these transactions has a receipt (a race with the nonce read above). */
  private async anyKnown(txs: SignedTx[]): Promise<boolean> {
    for (const tx of txs) if (await this.options.provider.getTransactionReceipt(tx.txHash)) return true;
    return false;
  }
}

class ReservedMeanwhile extends Error {}

/** The journal fields naming what a transaction is for. */
function stepOf(p: TxPurpose) {
  return {
    treeSize: p.treeSize,
    root: p.root,
    ...(p.action === "post" ? {} : { action: p.action }),
    ...(p.callId ? { callId: p.callId } : {}),
  };
}

function ref(tx: SignedTx) {
  return { ...stepOf(tx), nonce: tx.nonce, txHash: tx.txHash };
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
