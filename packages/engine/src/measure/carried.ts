/**
 * Balances carried from Transfer logs: the engine keeps each measured wallet's raw balance of every
 * token as of a block, and measuring a later block applies the tokens' Transfer logs in between
 * instead of calling `balanceOf` 5 × wallets times. `balanceOf` is still read for a wallet's first
 * measure, for any wallet whose carried balance would go negative, and for a reconciliation
 * rotation (each wallet once a day); a mismatch takes the chain's value and is reported. A token
 * that moves balances without a Transfer log (a rebasing token, a wipe without an event) is what
 * reconciliation catches; the replica's USDG and ERC-8056 stock tokens keep raw balances across a
 * split, so a split moves nothing here.
 */
import type { CarriedState } from "../store/queries/carried-balances";
import type { MeasureChain, PinnedBlock, TransferLog } from "./chain";
import { HOUR } from "./hour";

export type { CarriedState };

/** A carried balance that disagreed with `balanceOf` at the pinned block (the chain's value is taken). */
export interface CarriedMismatch {
  readonly wallet: string;
  readonly token: string;
  readonly carried: bigint;
  readonly chain: bigint;
}

/** What one carried read did. */
export interface CarriedRead {
  /** result[w][t], as `readBalances` answers. */
  readonly balances: bigint[][];
  /** The state at the pinned block, for the wallets read. */
  readonly state: CarriedState;
  /**
   * Every transfer of the tokens in (prior block, pinned block] touching a read wallet, in chain
   * order; undefined after a full read.
   */
  readonly transfers?: TransferLog[];
  /** The prior block `transfers` start after. */
  readonly transfersAfter?: number;
  /** Why every balance was read from the chain (no prior state, another token list, a reorg, going back). */
  readonly fullRead?: string;
  /** Wallets read with `balanceOf`: first measures, negatives, the rotation. */
  readonly checked: number;
  readonly mismatches: readonly CarriedMismatch[];
}

/** The rotation: each wallet is reconciled in one hour of the day, picked by its address. */
export const reconcilesAt = (wallet: string, at: number) =>
  BigInt(wallet) % 24n === BigInt(Math.floor(at / HOUR) % 24);

/**
 * The balances of `wallets` × `tokens` at `block` (hour boundary `at`), carried from `prior`
 * through the tokens' Transfer logs where it can be, read with `balanceOf` where it must be.
 * Answers exactly what `chain.readBalances` would for every token that logs its every move.
 */
export async function readCarried(
  chain: MeasureChain,
  prior: CarriedState | undefined,
  block: PinnedBlock,
  at: number,
  wallets: readonly string[],
  tokens: readonly string[],
): Promise<CarriedRead> {
  const fullRead = await whyFullRead(chain, prior, block, tokens);
  if (fullRead !== undefined || prior === undefined) {
    const balances = await chain.readBalances(block.number, wallets, tokens);
    const state = stateOf(block, tokens, wallets, balances);
    return {
      balances,
      state,
      fullRead: fullRead ?? "no carried state",
      checked: wallets.length,
      mismatches: [],
    };
  }
  const logs = await chain.tokenTransfers(tokens, prior.block, block.number);
  // Logs name addresses in lower case.
  const index = new Map(wallets.map((w, i) => [w.toLowerCase(), i]));
  const column = new Map(tokens.map((t, i) => [t.toLowerCase(), i]));
  const carried = wallets.map((w) => (prior.balances.has(w) ? [...prior.balances.get(w)!] : undefined));
  const transfers: TransferLog[] = [];
  for (const log of logs) {
    const from = index.get(log.from);
    const to = index.get(log.to);
    if (from === undefined && to === undefined) continue;
    transfers.push(log);
    const t = column.get(log.token)!;
    if (from !== undefined && carried[from]) carried[from][t]! -= log.amount;
    if (to !== undefined && carried[to]) carried[to][t]! += log.amount;
  }
  const check = wallets.flatMap((w, i) => {
    const row = carried[i];
    return !row || row.some((b) => b < 0n) || reconcilesAt(w, at) ? [i] : [];
  });
  const read = await chain.readBalances(
    block.number,
    check.map((i) => wallets[i]!),
    tokens,
  );
  const mismatches: CarriedMismatch[] = [];
  check.forEach((i, k) => {
    const row = carried[i];
    if (row)
      row.forEach((value, t) => {
        const actual = read[k]![t]!;
        if (value !== actual)
          mismatches.push({ wallet: wallets[i]!, token: tokens[t]!, carried: value, chain: actual });
      });
    carried[i] = read[k]!;
  });
  const balances = carried as bigint[][];
  return {
    balances,
    state: stateOf(block, tokens, wallets, balances),
    transfers,
    transfersAfter: prior.block,
    checked: check.length,
    mismatches,
  };
}

/** Why `prior` cannot be carried to `block`, or undefined when it can. */
async function whyFullRead(
  chain: MeasureChain,
  prior: CarriedState | undefined,
  block: PinnedBlock,
  tokens: readonly string[],
): Promise<string | undefined> {
  if (prior === undefined) return "no carried state";
  if (prior.tokens.join() !== tokens.join()) return "the listed tokens changed";
  if (prior.block > block.number) return `carried at block ${prior.block}, after ${block.number}`;
  const now = await chain.block(prior.block, true).catch(() => undefined);
  if (now?.hash !== prior.hash) return `block ${prior.block} is no longer ${prior.hash} (a reorg)`;
  return undefined;
}

function stateOf(
  block: PinnedBlock,
  tokens: readonly string[],
  wallets: readonly string[],
  balances: readonly bigint[][],
): CarriedState {
  return {
    block: block.number,
    hash: block.hash,
    tokens: [...tokens],
    balances: new Map(wallets.map((w, i) => [w, balances[i]!])),
  };
}
