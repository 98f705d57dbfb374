import { ZeroAddress } from "ethers";
import { assetAddress, type LedgerContext } from "./client";
import { Direction, parseDirection } from "./commitment";
import {
  BadArgumentError,
  BadDirectionError,
  ConfidenceOutOfRangeError,
  StakeBelowMinimumError,
  UnknownAssetError,
  WindowNotAllowedError,
} from "./errors";

/** The CallLedger's bounds (constants there, not readable on chain). */
export const MIN_CONFIDENCE_BPS = 5000;
export const MAX_CONFIDENCE_BPS = 10_000;

/** A call as a person or a program states it: symbol or address, "up"/"down", numbers. */
export interface CallRequest {
  readonly asset: string;
  readonly window: number | string;
  readonly direction: string | Direction;
  readonly confidenceBps: number | string;
}

export interface ValidCall {
  readonly asset: string;
  readonly window: number;
  readonly direction: Direction;
  readonly confidenceBps: number;
}

function integer(value: number | string): number | undefined {
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Windows the ledger allows now, from its WindowSet history (empty if the node cannot say). */
export async function allowedWindows(context: LedgerContext): Promise<number[]> {
  try {
    const events = await context.ledger.queryFilter(context.ledger.filters.WindowSet!(), 0);
    const state = new Map<number, boolean>();
    for (const event of events) {
      if ("args" in event) state.set(Number(event.args[0]), Boolean(event.args[1]));
    }
    return [...state]
      .filter(([, allowed]) => allowed)
      .map(([w]) => w)
      .sort((a, b) => a - b);
  } catch {
    return [];
  }
}

/** The asset's address if the oracle prices it (a pool or an updater), else UnknownAssetError. */
export async function requirePricedAsset(context: LedgerContext, asset: string): Promise<string> {
  const address = assetAddress(context, asset);
  const known = Object.keys(context.assets);
  if (!address) throw new UnknownAssetError(asset, known);
  const [pool] = (await context.oracle.getFunction("poolOf")(address)) as [string];
  if (pool !== ZeroAddress) return address;
  const updater = (await context.oracle.getFunction("updaterOf")(address)) as string;
  if (updater !== ZeroAddress) return address;
  throw new UnknownAssetError(asset, known);
}

export async function requireAllowedWindow(context: LedgerContext, window: number | string): Promise<number> {
  const seconds = integer(window);
  if (seconds === undefined || seconds <= 0 || seconds > 0xffffffff) {
    throw new BadArgumentError("window", "must be a whole number of seconds", window);
  }
  if (!((await context.ledger.getFunction("windowAllowed")(seconds)) as boolean)) {
    throw new WindowNotAllowedError(seconds, await allowedWindows(context));
  }
  return seconds;
}

export function requireConfidence(confidenceBps: number | string): number {
  const bps = integer(confidenceBps);
  if (bps === undefined || bps < MIN_CONFIDENCE_BPS || bps > MAX_CONFIDENCE_BPS) {
    throw new ConfidenceOutOfRangeError(confidenceBps);
  }
  return bps;
}

export function requireDirection(direction: string | Direction): Direction {
  const parsed = typeof direction === "string" ? parseDirection(direction) : direction;
  if (parsed !== Direction.Up && parsed !== Direction.Down) throw new BadDirectionError(direction);
  return parsed;
}

/** The agent's stake covers `minStake`, as commit requires. */
export async function requireStake(context: LedgerContext): Promise<void> {
  const [record, minStake] = await Promise.all([
    context.ledger.getFunction("record")(context.agent) as Promise<{ stake: bigint }>,
    context.ledger.getFunction("minStake")() as Promise<bigint>,
  ]);
  if (record.stake < minStake) throw new StakeBelowMinimumError(context.agent, record.stake, minStake);
}

/** Every check a commit needs, all reads: nothing is sent if any fails. */
export async function validateCall(context: LedgerContext, request: CallRequest): Promise<ValidCall> {
  const direction = requireDirection(request.direction);
  const confidenceBps = requireConfidence(request.confidenceBps);
  const asset = await requirePricedAsset(context, request.asset);
  const window = await requireAllowedWindow(context, request.window);
  await requireStake(context);
  return { asset, window, direction, confidenceBps };
}
