import { startHardhatNode, type HardhatNode } from "../../src/chain/node";

/**
 * One `hardhat node` for every test file of a run that needs a JSON-RPC chain: starting one costs
 * about 10 CPU s, and seven files each started their own. The first caller starts it; it is killed
 * when the test process exits.
 */
let shared: Promise<{ node: HardhatNode; pristine: string }> | undefined;

async function start(): Promise<{ node: HardhatNode; pristine: string }> {
  const node = await startHardhatNode({ unref: true });
  return { node, pristine: (await node.provider.send("evm_snapshot", [])) as string };
}

/**
 * The run's node, handed to each file as a new node would be: reverted to the snapshot taken
 * when it came up (no deployments, every account's balance and nonce, the clock without any
 * offset a file gave it, automine on). Its `stop` does nothing: the node outlives the file.
 */
export async function sharedHardhatNode(): Promise<HardhatNode> {
  shared ??= start();
  const state = await shared;
  if (!((await state.node.provider.send("evm_revert", [state.pristine])) as boolean)) {
    throw new Error("the shared hardhat node lost its start snapshot");
  }
  // Mining mode is no part of a snapshot: back to a new node's automine.
  await state.node.provider.send("evm_setAutomine", [true]);
  // A revert uses its snapshot up: take it again for the next file.
  state.pristine = (await state.node.provider.send("evm_snapshot", [])) as string;
  return { url: state.node.url, provider: state.node.provider, stop: async () => undefined };
}
