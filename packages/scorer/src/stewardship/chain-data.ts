import { InvalidInputError } from "../errors";

/** An ERC-20 Transfer log of the token; `amount` in base units. */
export interface TokenTransfer {
  readonly tx: string;
  readonly logIndex: number;
  /** block.timestamp, seconds. */
  readonly time: number;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/**
 * A movement of another asset that can fund trading: native ETH (`asset` "eth", from a
 * transaction's value, `logIndex` -1 so it sorts before that transaction's logs) or an ERC-20
 * such as USDG (`asset` its lowercase address, from its Transfer log). Read only to find funding
 * sources, criterion (c): wash clusters are usually funded in ETH or USDG, not in the token.
 */
export interface FundingTransfer extends TokenTransfer {
  readonly asset: string;
}

/** The native asset's name in `FundingTransfer.asset`. */
export const NATIVE_ASSET = "eth";

/** A pool Swap log seen from the token's side: a `buy` takes tokens out of the pool. */
export interface PoolSwap {
  readonly tx: string;
  readonly logIndex: number;
  readonly time: number;
  readonly pool: string;
  readonly taker: string;
  readonly side: "buy" | "sell";
  readonly tokens: bigint;
  readonly usd: number;
}

/** Which addresses are pools and which are excluded (operator wallets, LP timelock, vesting). */
export interface StewardshipConfig {
  readonly decimals: number;
  readonly pools: readonly string[];
  readonly excluded: readonly string[];
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** A swap's identity in evidence: `<tx>:<logIndex>`. */
export const swapId = (swap: PoolSwap): string => `${swap.tx}:${swap.logIndex}`;

function address(value: string, path: string): void {
  if (!ADDRESS.test(value)) throw new InvalidInputError(path, "must be a lowercase 0x address of 20 bytes");
}

function time(value: number, path: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new InvalidInputError(path, "must be a unix time in seconds");
}

export function checkTransfers(transfers: readonly TokenTransfer[], list = "transfers"): void {
  transfers.forEach((t, i) => {
    time(t.time, `${list}[${i}].time`);
    address(t.from, `${list}[${i}].from`);
    address(t.to, `${list}[${i}].to`);
    if (typeof t.amount !== "bigint" || t.amount < 0n) {
      throw new InvalidInputError(`${list}[${i}].amount`, "must be a bigint of base units, 0 or more");
    }
  });
}

export function checkFunding(funding: readonly FundingTransfer[]): void {
  checkTransfers(funding, "funding");
  funding.forEach((f, i) => {
    if (f.asset !== NATIVE_ASSET && !ADDRESS.test(f.asset))
      throw new InvalidInputError(
        `funding[${i}].asset`,
        `must be "${NATIVE_ASSET}" or a lowercase 0x address`,
      );
    if (!Number.isSafeInteger(f.logIndex) || f.logIndex < -1)
      throw new InvalidInputError(
        `funding[${i}].logIndex`,
        "must be a log index, or -1 for a transaction's value",
      );
  });
}

export function checkSwaps(swaps: readonly PoolSwap[]): void {
  swaps.forEach((s, i) => {
    time(s.time, `swaps[${i}].time`);
    address(s.pool, `swaps[${i}].pool`);
    address(s.taker, `swaps[${i}].taker`);
    if (s.side !== "buy" && s.side !== "sell")
      throw new InvalidInputError(`swaps[${i}].side`, 'must be "buy" or "sell"');
    if (typeof s.tokens !== "bigint" || s.tokens <= 0n) {
      throw new InvalidInputError(`swaps[${i}].tokens`, "must be a bigint of base units above 0");
    }
    if (!Number.isFinite(s.usd) || s.usd < 0)
      throw new InvalidInputError(`swaps[${i}].usd`, "must be a finite number, 0 or more");
  });
}

/** Events in chain order: time, then transaction, then log index. */
export function chainOrder<T extends { time: number; tx: string; logIndex: number }>(a: T, b: T): number {
  return a.time - b.time || (a.tx < b.tx ? -1 : a.tx > b.tx ? 1 : 0) || a.logIndex - b.logIndex;
}
