import type { JsonRpcProvider } from "ethers";

/** EIP-1559 fee caps of one transaction. */
export interface Fees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

/** Nodes refuse a replacement unless both caps rise by at least 10 %; 12.5 % clears every client. */
export const MIN_BUMP_BPS = 1250n;

/** Fees for a fresh transaction: twice the next base fee (room for six full blocks) plus the tip. */
export async function currentFees(provider: JsonRpcProvider): Promise<Fees> {
  const block = (await provider.send("eth_getBlockByNumber", ["latest", false])) as {
    baseFeePerGas?: string;
  } | null;
  const baseFee = BigInt(block?.baseFeePerGas ?? "0x0");
  let tip: bigint;
  try {
    tip = BigInt((await provider.send("eth_maxPriorityFeePerGas", [])) as string);
  } catch {
    tip = 1_000_000_000n; // nodes without the method: 1 gwei
  }
  return { maxFeePerGas: baseFee * 2n + tip, maxPriorityFeePerGas: tip };
}

function bumped(value: bigint, bps: bigint): bigint {
  // Round up, and at least +1 wei, so a tiny fee still strictly rises.
  const raised = (value * (10_000n + bps) + 9_999n) / 10_000n;
  return raised > value ? raised : value + 1n;
}

/**
 * Fees for a replacement at the same nonce: each cap at least `bps` above the stuck one, and
 * never below what a fresh transaction would pay now (the base fee may have run away).
 */
export function bumpFees(stuck: Fees, now: Fees, bps: bigint = MIN_BUMP_BPS): Fees {
  const tip = bumped(stuck.maxPriorityFeePerGas, bps);
  const fee = bumped(stuck.maxFeePerGas, bps);
  const maxPriorityFeePerGas = tip > now.maxPriorityFeePerGas ? tip : now.maxPriorityFeePerGas;
  let maxFeePerGas = fee > now.maxFeePerGas ? fee : now.maxFeePerGas;
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas };
}
