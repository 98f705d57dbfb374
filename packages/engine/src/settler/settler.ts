import { Contract } from "ethers";
import { callLedger, CALL_LEDGER_ABI } from "../chain/abi/call-ledger";
import { decodeContractError } from "../keeper/registry";
import { JournalSender, type SenderOptions } from "../keeper/sender";
import { dueCalls, type DueCall } from "../store/queries/calls";
import { SettlerCallError } from "./errors";

export interface SettlerOptions extends SenderOptions {
  /** The CallLedger whose open calls this settler resolves. */
  readonly ledger: string;
  /** Calls resolved per pass at most (settler/config.ts). */
  readonly maxPerPass: number;
  /** How long one pass waits for a transaction to be mined before leaving the rest for the next. */
  readonly waitMs: number;
}

/** What one pass did. */
export interface SettleReport {
  /** Calls the ledger would accept a resolution of when the pass began (seen by the indexer). */
  readonly due: number;
  readonly settled: number;
  readonly expired: number;
  /** Already resolved by someone else (the agent, another settler): nothing sent. */
  readonly skipped: number;
  /** Typed errors of the calls that failed this pass; each is tried again next pass. */
  readonly failed: readonly SettlerCallError[];
  /** Gas the pass's mined transactions used. */
  readonly gasUsed: bigint;
  /** True when a transaction was still unmined when the pass stopped waiting. */
  readonly pending: boolean;
}

/** Errors a simulation reverts with when somebody resolved the call first. */
const ALREADY_RESOLVED = new Set([
  "CallLedgerNotRevealed",
  "CallLedgerNotCommitted",
  "CallLedgerUnknownCall",
]);
/** Errors a simulation reverts with when the chain's next block is not yet past the call's time. */
const NOT_YET = new Set(["CallLedgerNotClosed", "CallLedgerRevealNotTimedOut"]);

/**
 * Settles every revealed call whose `closesAt` has passed and expires every commit past its reveal
 * timeout, from the keeper's account under the keeper's journal (keeper/sender.ts): so no agent can
 * leave a losing call open until it voids, nor an unrevealed commit unexpired. The open calls are
 * the ones the indexer saw (`call_events`); the chain's clock decides what is due, and each call's
 * simulation decides whether it still is (an agent may have settled it meanwhile).
 */
export class Settler {
  readonly sender: JournalSender;
  private readonly ledger: Contract;
  private readonly address: string;

  constructor(private readonly options: SettlerOptions) {
    this.sender = new JournalSender(options);
    this.address = options.ledger.toLowerCase();
    this.ledger = new Contract(options.ledger, CALL_LEDGER_ABI, options.provider);
  }

  private say(line: string): void {
    this.options.progress?.(line);
  }

  /** One pass: finish the account's open nonce, then resolve up to `maxPerPass` due calls, one at a time. */
  async pass(): Promise<SettleReport> {
    const { store, provider, maxPerPass, waitMs, chainId } = this.options;
    const deadline = Date.now() + waitMs;
    const report = {
      due: 0,
      settled: 0,
      expired: 0,
      skipped: 0,
      failed: [] as SettlerCallError[],
      gasUsed: 0n,
      pending: false,
    };
    const first = await this.sender.finishOpen(deadline);
    if (first.kind === "pending") return { ...report, pending: true };
    const latest = await provider.getBlock("latest");
    const timeout = Number(await this.ledger.getFunction("revealTimeout").staticCall());
    const { due, total } = await dueCalls(
      store.db,
      { chainId, address: this.address },
      latest!.timestamp,
      timeout,
      maxPerPass,
    );
    report.due = total;
    if (total > due.length) this.say(`${total} calls due; ${due.length} this pass, the rest next pass`);
    for (const call of due) {
      let result: Awaited<ReturnType<Settler["resolve"]>>;
      try {
        result = await this.resolve(call, deadline);
      } catch (error) {
        if (!(error instanceof SettlerCallError)) throw error; // the account's own trouble: stop
        report.failed.push(error);
        this.say(`${error.code}: ${error.message}`);
        continue;
      }
      if (result.kind === "pending") return { ...report, pending: true };
      if (result.kind === "skipped") report.skipped++;
      if (result.kind === "resolved") {
        report.gasUsed += result.gasUsed;
        if (call.action === "settle") report.settled++;
        else report.expired++;
      }
    }
    return report;
  }

  /** Simulates, sends and waits for one call's resolution. */
  private async resolve(
    call: DueCall,
    deadline: number,
  ): Promise<{ kind: "resolved"; gasUsed: bigint } | { kind: "skipped" | "early" | "pending" }> {
    const { provider, signer } = this.options;
    const data = callLedger.encodeFunctionData(call.action, [call.callId]);
    const purpose = { to: this.address, action: call.action, treeSize: 0, root: "", callId: call.callId };
    let gas: bigint;
    try {
      gas = await provider.estimateGas({ from: signer.address, to: this.address, data });
    } catch (error) {
      const decoded = decodeContractError(callLedger, error);
      if (decoded && NOT_YET.has(decoded.name)) return { kind: "early" };
      const reason = decoded?.name ?? (error instanceof Error ? error.message : String(error));
      await this.sender.step(this.address, {
        status: ALREADY_RESOLVED.has(reason) ? "skipped" : "failed",
        ...purpose,
        error: `simulation: ${reason}`,
      });
      if (decoded && ALREADY_RESOLVED.has(decoded.name)) {
        this.say(`${call.action} ${call.callId}: already resolved (${decoded.name})`);
        return { kind: "skipped" };
      }
      throw new SettlerCallError(call.action, call.callId, `simulation: ${reason}`);
    }
    if (!(await this.sender.send(purpose, data, gas))) {
      // Another process of this account reserved a nonce meanwhile: finish it, ours waits a pass.
      const other = await this.sender.finishOpen(deadline);
      return { kind: other.kind === "pending" ? "pending" : "early" };
    }
    const closed = await this.sender.finishOpen(deadline);
    if (closed.kind !== "closed") return { kind: "pending" };
    if (closed.status === "reverted") {
      throw new SettlerCallError(call.action, call.callId, `transaction ${closed.tx.txHash} reverted`);
    }
    this.say(`${call.action} ${call.callId} (agent ${call.agent}): mined, gas ${closed.gasUsed}`);
    return { kind: "resolved", gasUsed: closed.gasUsed };
  }
}
