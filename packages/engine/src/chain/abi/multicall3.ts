import { Contract, Interface, type ContractRunner } from "ethers";

/**
 * Multicall3 at its canonical address, the same on every chain that has it: Robinhood Chain
 * (config/robinhood.json, `multicall3`, with its source) and the replica, which installs
 * contracts/test/ReplicaMulticall3.sol there. The slice the engine uses: `aggregate3` and the block
 * reads that pin a batch to the block it ran in.
 */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";

export const MULTICALL3_ABI = [
  "function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
  "function getBlockNumber() view returns (uint256 blockNumber)",
  "function getCurrentBlockTimestamp() view returns (uint256 timestamp)",
] as const;

export const multicall3 = new Interface(MULTICALL3_ABI);

/** One read of a batch: the contract, its interface, the function and its arguments. */
export interface BatchedRead {
  readonly target: string;
  readonly iface: Interface;
  readonly fn: string;
  readonly args: readonly unknown[];
}

/** A read's outcome: its decoded result, or `undefined` where the call reverted. */
export type BatchedResult = ReturnType<Interface["decodeFunctionResult"]> | undefined;

/**
 * Runs `reads` as one `eth_call` of `aggregate3` (each allowed to fail) at `blockTag` (default
 * latest), so every value comes from the same block, and decodes each answer with its interface.
 */
export async function readBatch(
  runner: ContractRunner,
  reads: readonly BatchedRead[],
  blockTag?: number | string,
): Promise<BatchedResult[]> {
  const contract = new Contract(MULTICALL3_ADDRESS, MULTICALL3_ABI, runner);
  const calls = reads.map((r) => ({
    target: r.target,
    allowFailure: true,
    callData: r.iface.encodeFunctionData(r.fn, r.args as unknown[]),
  }));
  const overrides = blockTag === undefined ? {} : { blockTag };
  const results = (await contract.getFunction("aggregate3").staticCall(calls, overrides)) as {
    success: boolean;
    returnData: string;
  }[];
  return results.map((result, i) => {
    const read = reads[i]!;
    return result.success ? read.iface.decodeFunctionResult(read.fn, result.returnData) : undefined;
  });
}
