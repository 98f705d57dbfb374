import { task, types } from "hardhat/config";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import {
  commitCall,
  describeCall,
  directionName,
  expireCall,
  formatFixed18,
  readCall,
  readStanding,
  resumeCalls,
  revealCall,
  settleCall,
  symbolOf,
  type LedgerContext,
  type PilotStep,
} from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { agentContext, openVault, parseCallId } from "./lib/runtime";

interface AgentArgs {
  account?: string;
  vault?: string;
  json: boolean;
}

interface PilotArgs {
  pollMs: string;
  timeout?: string;
}

function pilotOptions(args: PilotArgs, onStep?: (step: PilotStep) => void) {
  const pollMs = Number(args.pollMs);
  const timeoutMs = args.timeout === undefined ? undefined : Number(args.timeout) * 1000;
  return { pollMs: Number.isFinite(pollMs) && pollMs > 0 ? pollMs : 2000, timeoutMs, onStep };
}

function stepLine(step: PilotStep): string {
  const id = step.callId === undefined ? step.commitment.slice(0, 10) : `call ${step.callId}`;
  return `${id}: ${step.action} — ${step.detail}${step.txHash ? ` (tx ${step.txHash})` : ""}`;
}

/** The agent flags every call task shares. */
function agentTask(name: string, description: string) {
  return task(name, description)
    .addOptionalParam("account", "local networks only: index of the node account to act as (default 0)")
    .addOptionalParam("vault", "salt vault file (default AUGUR_VAULT or .data/vault/<network>-<agent>.json)")
    .addFlag("json", "print one JSON object instead of the summary");
}

async function resumeAll(
  hre: HardhatRuntimeEnvironment,
  context: LedgerContext,
  args: AgentArgs & PilotArgs,
  noWait: boolean,
) {
  const vault = openVault(hre, context.agent, args.vault);
  const steps = await resumeCalls(context, vault, {
    ...pilotOptions(args, args.json ? undefined : (s) => console.log(stepLine(s))),
    noWait,
  });
  return { steps };
}

agentTask(
  "call:commit",
  "Commit a price call (salt kept in the vault first); --auto-reveal also reveals and settles it",
)
  .addParam("asset", "stock symbol from the deployment (e.g. NVDA) or token address")
  .addParam("window", "seconds until the call closes once revealed; must be allowed by the ledger")
  .addParam("direction", "up or down")
  .addParam("confidence", "stated probability of being right, basis points: 5000–10000")
  .addFlag(
    "autoReveal",
    "wait for the next block, reveal, wait for the close, settle (resumable: call:resume)",
  )
  .addOptionalParam("pollMs", "auto-reveal: how often to look at the chain, ms", "2000", types.string)
  .addOptionalParam("timeout", "auto-reveal: stop waiting after this many seconds (resume later)")
  .setAction(
    async (
      args: AgentArgs &
        PilotArgs & {
          asset: string;
          window: string;
          direction: string;
          confidence: string;
          autoReveal: boolean;
        },
      hre,
    ) =>
      guarded(async () => {
        const context = await agentContext(hre, args.account);
        const vault = openVault(hre, context.agent, args.vault);
        const committed = await commitCall(context, vault, {
          asset: args.asset,
          window: args.window,
          direction: args.direction,
          confidenceBps: args.confidence,
        });
        const entry = committed.entry;
        const summary = {
          callId: committed.callId,
          commitment: entry.commitment,
          agent: context.agent,
          asset: entry.asset,
          window: entry.window,
          direction: directionName(entry.direction),
          confidenceBps: entry.confidenceBps,
          txHash: committed.txHash,
          block: committed.blockNumber,
          vault: vault.path,
        };
        if (!args.json) {
          console.log(
            `committed call ${committed.callId} in block ${committed.blockNumber} (tx ${committed.txHash})`,
          );
          console.log(
            `  ${summary.direction} ${symbolOf(context, entry.asset)} over ${entry.window}s at ${entry.confidenceBps} bps; salt kept in ${vault.path}`,
          );
          if (!args.autoReveal)
            console.log(
              `  reveal it from the next block on: npx hardhat call:reveal --call-id ${committed.callId} --network ${hre.network.name}`,
            );
        }
        if (!args.autoReveal) return report(args.json, summary, () => []);
        const { steps } = await resumeAll(hre, context, args, false);
        return report(args.json, { ...summary, steps }, () => []);
      }),
  );

agentTask(
  "call:resume",
  "After a restart: take every open call of the vault further (recover ids, reveal, settle, expire)",
)
  .addFlag("wait", "wait for calls to close and settle them (default: do what is possible now and return)")
  .addOptionalParam("pollMs", "how often to look at the chain while waiting, ms", "2000", types.string)
  .addOptionalParam("timeout", "stop waiting after this many seconds")
  .setAction(async (args: AgentArgs & PilotArgs & { wait: boolean }, hre) =>
    guarded(async () => {
      const context = await agentContext(hre, args.account);
      const { steps } = await resumeAll(hre, context, args, !args.wait);
      return report(args.json, { agent: context.agent, steps }, () =>
        steps.length === 0 ? ["nothing open in the vault"] : [],
      );
    }),
  );

agentTask(
  "call:reveal",
  "Reveal a committed call with its salt from the vault (from the block after the commit)",
)
  .addParam("callId", "the call id call:commit printed")
  .setAction(async (args: AgentArgs & { callId: string }, hre) =>
    guarded(async () => {
      const callId = parseCallId(args.callId);
      const context = await agentContext(hre, args.account);
      const vault = openVault(hre, context.agent, args.vault);
      const revealed = await revealCall(context, vault, callId);
      return report(args.json, revealed, () => [
        `revealed call ${callId} (tx ${revealed.txHash}); entry price ${formatFixed18(revealed.entryPrice)} USDG, closes at ${new Date(revealed.closesAt * 1000).toISOString()}`,
        `  settle it after that: npx hardhat call:settle --call-id ${callId} --network ${hre.network.name}`,
      ]);
    }),
  );

agentTask("call:settle", "Settle a revealed call once it has closed (anyone may)")
  .addParam("callId", "the call id")
  .setAction(async (args: AgentArgs & { callId: string }, hre) =>
    guarded(async () => {
      const callId = parseCallId(args.callId);
      const context = await agentContext(hre, args.account);
      const vault = openVault(hre, context.agent, args.vault);
      const settled = await settleCall(context, callId, vault);
      return report(args.json, settled, () => [
        `settled call ${callId}: ${settled.outcome} (tx ${settled.txHash})`,
      ]);
    }),
  );

agentTask("call:expire", "Expire a call that was not revealed in time: it counts as a miss (anyone may)")
  .addParam("callId", "the call id")
  .setAction(async (args: AgentArgs & { callId: string }, hre) =>
    guarded(async () => {
      const callId = parseCallId(args.callId);
      const context = await agentContext(hre, args.account);
      const vault = openVault(hre, context.agent, args.vault);
      const expired = await expireCall(context, callId, vault);
      return report(args.json, expired, () => [
        `expired call ${callId}: a miss for its agent (tx ${expired.txHash})`,
      ]);
    }),
  );

agentTask(
  "call:status",
  "Show one call, or the agent's record (score, streak) and its open calls in the vault",
)
  .addOptionalParam("callId", "a call id; without it, the agent's standing")
  .addOptionalParam("agent", "another agent's address (default: your own)")
  .setAction(async (args: AgentArgs & { callId?: string; agent?: string }, hre) =>
    guarded(async () => {
      const context = await agentContext(hre, args.account);
      if (args.callId !== undefined) {
        const call = await readCall(context, parseCallId(args.callId));
        return report(args.json, call, () => [describeCall(context, call)]);
      }
      const standing = await readStanding(context, args.agent ?? context.agent);
      const open = args.agent ? [] : openVault(hre, context.agent, args.vault).open();
      return report(args.json, { ...standing, open }, () => [
        `agent ${standing.agent}: score ${formatFixed18(standing.score)}, ${standing.hits} hits / ${standing.misses} misses / ${standing.voids} voids, streak ${standing.streak} (best ${standing.bestStreak})`,
        `  stake ${standing.stake} USDG base units, ${standing.openCalls} open call(s) on chain, ${open.length} open in the vault`,
        ...open.map(
          (e) =>
            `  ${e.callId ? `call ${e.callId}` : e.commitment.slice(0, 10)}: ${e.state} ${directionName(e.direction)} ${symbolOf(context, e.asset)} ${e.window}s`,
        ),
      ]);
    }),
  );
