import type { Provider } from "ethers";
import type { LedgerContext } from "./client";
import { expireCall, readCall, revealCall, settleCall } from "./calls";
import { RevealTooEarlyError } from "./errors";
import type { SaltVault, VaultEntry } from "./vault";

export interface PilotOptions {
  /** How often to look at the chain while waiting, ms. */
  readonly pollMs?: number;
  /** Give up waiting after this long, ms (the vault keeps the call for a later resume). */
  readonly timeoutMs?: number;
  /** Do not wait for calls to close: reveal what can be revealed, settle what is closed, return. */
  readonly noWait?: boolean;
  /** One line per step, for the human summary. */
  readonly onStep?: (step: PilotStep) => void;
}

export interface PilotStep {
  readonly action: "recovered" | "dropped" | "revealed" | "settled" | "expired" | "waiting";
  readonly callId?: bigint;
  readonly commitment: string;
  readonly detail: string;
  readonly txHash?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once the latest block's timestamp is past `timestamp` (strictly): a transaction sent
 * then lands in a block with a later timestamp too. Arbitrum blocks can share a timestamp, so the
 * block number alone would not do.
 */
export async function waitForTimestampAfter(
  provider: Provider,
  timestamp: number,
  options: PilotOptions = {},
): Promise<boolean> {
  const started = Date.now();
  for (;;) {
    const block = await provider.getBlock("latest");
    if (block && block.timestamp > timestamp) return true;
    if (options.timeoutMs !== undefined && Date.now() - started >= options.timeoutMs) return false;
    await sleep(options.pollMs ?? 1000);
  }
}

/**
 * Reveals as soon as the chain allows: the reveal must land in a block with a later timestamp than
 * the commit's. It is simply tried (gas estimation runs it against the next block, so a refusal
 * costs nothing) and, when too early, tried again after a later block appears.
 */
async function revealWhenPossible(
  context: LedgerContext,
  vault: SaltVault,
  callId: bigint,
  committedAt: number,
  options: PilotOptions,
) {
  for (;;) {
    try {
      return await revealCall(context, vault, callId);
    } catch (error) {
      if (!(error instanceof RevealTooEarlyError) || options.noWait) {
        if (error instanceof RevealTooEarlyError) return undefined;
        throw error;
      }
      if (!(await waitForTimestampAfter(context.signer.provider, committedAt, options))) return undefined;
    }
  }
}

/**
 * Finds the call id of an entry whose commit was sent but not recorded (a crash between sending
 * and the vault update): from its transaction if known, else from the ledger's Committed events
 * of this agent. Undefined when the commit never reached the chain.
 */
async function recoverCallId(
  context: LedgerContext,
  entry: VaultEntry,
): Promise<{ callId: bigint; committedAt: number; block: number } | undefined> {
  const events = await context.ledger.queryFilter(
    context.ledger.filters.Committed!(null, entry.agent),
    entry.preparedBlock ?? 0,
  );
  for (const event of events) {
    if ("args" in event && String(event.args[2]).toLowerCase() === entry.commitment) {
      return {
        callId: event.args[0] as bigint,
        committedAt: Number(event.args[3]),
        block: event.blockNumber,
      };
    }
  }
  return undefined;
}

/**
 * Takes every open call of this agent in the vault one step further, or all the way with waiting:
 * `prepared` → find its call id (or drop it if the commit never landed and nothing is pending);
 * `committed` → reveal (or expire once its reveal deadline passed: it counts as a miss either
 * way, and expiring frees the stake); `revealed` → settle once closed. Safe to run after any crash.
 */
export async function resumeCalls(
  context: LedgerContext,
  vault: SaltVault,
  options: PilotOptions = {},
): Promise<PilotStep[]> {
  const steps: PilotStep[] = [];
  const report = (step: PilotStep) => {
    steps.push(step);
    options.onStep?.(step);
  };
  const mine = vault
    .open()
    .filter(
      (e) =>
        e.agent.toLowerCase() === context.agent.toLowerCase() &&
        e.ledger.toLowerCase() === String(context.ledger.target).toLowerCase() &&
        BigInt(e.chainId) === context.chainId,
    );
  for (let entry of mine) {
    if (entry.state === "prepared") {
      const found = await recoverCallId(context, entry);
      if (!found) {
        const provider = context.signer.provider;
        const [latest, pending] = await Promise.all([
          provider.getTransactionCount(context.agent, "latest"),
          provider.getTransactionCount(context.agent, "pending"),
        ]);
        if (latest === pending) {
          vault.remove(entry.commitment);
          report({
            action: "dropped",
            commitment: entry.commitment,
            detail: "commit never reached the chain; its salt was unused",
          });
        } else {
          report({
            action: "waiting",
            commitment: entry.commitment,
            detail: "a transaction of this agent is still pending; resume later",
          });
        }
        continue;
      }
      entry = vault.update(entry.commitment, {
        state: "committed",
        callId: found.callId.toString(),
        committedAt: found.committedAt,
        committedBlock: found.block,
      });
      report({
        action: "recovered",
        callId: found.callId,
        commitment: entry.commitment,
        detail: `call id recovered from block ${found.block}`,
      });
    }
    const callId = BigInt(entry.callId!);
    let call = await readCall(context, callId);
    if (call.status === "committed") {
      const now = (await context.signer.provider.getBlock("latest"))?.timestamp ?? 0;
      if (now > call.revealDeadline) {
        const expired = await expireCall(context, callId, vault);
        report({
          action: "expired",
          callId,
          commitment: entry.commitment,
          detail: "reveal deadline passed: expired (a miss)",
          txHash: expired.txHash,
        });
        continue;
      }
      const revealed = await revealWhenPossible(context, vault, callId, call.committedAt, options);
      if (!revealed) {
        report({
          action: "waiting",
          callId,
          commitment: entry.commitment,
          detail: "no block after the commit yet",
        });
        continue;
      }
      report({
        action: "revealed",
        callId,
        commitment: entry.commitment,
        detail: `closes at ${revealed.closesAt}`,
        txHash: revealed.txHash,
      });
      call = await readCall(context, callId);
    }
    if (call.status === "revealed") {
      if (options.noWait) {
        const now = (await context.signer.provider.getBlock("latest"))?.timestamp ?? 0;
        if (now < call.closesAt) {
          report({
            action: "waiting",
            callId,
            commitment: entry.commitment,
            detail: `closes at ${call.closesAt}`,
          });
          continue;
        }
      } else if (!(await waitForTimestampAfter(context.signer.provider, call.closesAt - 1, options))) {
        report({
          action: "waiting",
          callId,
          commitment: entry.commitment,
          detail: `closes at ${call.closesAt}`,
        });
        continue;
      }
      const settled = await settleCall(context, callId, vault);
      report({
        action: "settled",
        callId,
        commitment: entry.commitment,
        detail: settled.outcome,
        txHash: settled.txHash,
      });
    } else if (call.status === "settled" || call.status === "expired") {
      vault.update(entry.commitment, { state: call.status, outcome: call.outcome });
    }
  }
  return steps;
}
