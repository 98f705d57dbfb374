import { Contract, type JsonRpcProvider } from "ethers";
import { CALL_LEDGER_ABI } from "../chain/abi/call-ledger";
import type { Store } from "../store/open";
import { CallLedgerEvents } from "./calls";
import { EventFollower, type FollowReport } from "./follow";

export interface LedgerIndexerOptions {
  readonly store: Store;
  readonly provider: JsonRpcProvider;
  readonly chainId: number;
  readonly ledger: string;
  readonly startBlock: number;
  readonly confirmations: number;
  readonly batchBlocks?: number;
  readonly now: () => number;
}

/** The follower of one CallLedger's Committed/Revealed/Settled/Expired/Consensus events. */
export function ledgerIndexer(options: LedgerIndexerOptions): EventFollower {
  const source = { chainId: options.chainId, address: options.ledger.toLowerCase() };
  const ledger = new Contract(options.ledger, CALL_LEDGER_ABI, options.provider);
  const revealTimeout = async () => Number(await ledger.getFunction("revealTimeout").staticCall());
  return new EventFollower(
    { ...options, source },
    new CallLedgerEvents(source, options.confirmations, options.now, revealTimeout),
  );
}

/** Several followers polled in turn, reported as one. */
export function allOf(followers: readonly { poll(): Promise<FollowReport> }[]): {
  poll(): Promise<FollowReport>;
} {
  return {
    async poll() {
      const reports: FollowReport[] = [];
      for (const f of followers) reports.push(await f.poll());
      return {
        latest: Math.max(...reports.map((r) => r.latest)),
        cursor: Math.min(...reports.map((r) => r.cursor)),
        stored: reports.reduce((n, r) => n + r.stored, 0),
        rolledBack: reports.reduce((n, r) => n + r.rolledBack, 0),
        promoted: reports.reduce((n, r) => n + r.promoted, 0),
      };
    },
  };
}
