import { AugurError, type Hex32 } from "@augur/scorer";
import { anchorRegistry } from "../chain/abi/anchor-registry";
import type { HttpOptions } from "./http";
import { JsonRpcError, rpcCall } from "./json-rpc";
import type { HeadChecker } from "./verify-score";

/** `--registry` names no AnchorRegistry on that chain. */
export class NotARegistryError extends AugurError {
  override readonly name = "NotARegistryError";
  constructor(registry: string, problem: string) {
    super("NOT_A_REGISTRY", `--registry ${registry} ${problem}`, { registry });
  }
}

/** The block every read is made at (docs/engine.md, "Trust roots"). */
export const BLOCK_TAG = "latest";

/**
 * Checks heads on chain through AnchorRegistry.verifyInclusion at `registry` over `rpcUrl`, with
 * plain JSON-RPC calls (one attempt each, within the deadline). Before the first check it makes
 * sure the address holds code that answers anchorCount(), so a wrong address is one line.
 */
export function registryHeadChecker(rpcUrl: string, registry: string, options: HttpOptions): HeadChecker {
  const call = async (fn: "anchorCount" | "verifyInclusion", args: readonly unknown[]) => {
    const data = anchorRegistry.encodeFunctionData(fn, args);
    return (await rpcCall(rpcUrl, "eth_call", [{ to: registry, data }, BLOCK_TAG], options)) as string;
  };
  let identified: Promise<void> | undefined;
  const identify = async () => {
    const code = await rpcCall(rpcUrl, "eth_getCode", [registry, BLOCK_TAG], options);
    if (code === "0x" || code === "0x0")
      throw new NotARegistryError(registry, `is not a contract on the chain at ${rpcUrl} (no code)`);
    try {
      anchorRegistry.decodeFunctionResult("anchorCount", await call("anchorCount", []));
    } catch {
      throw new NotARegistryError(registry, `is a contract but not an AnchorRegistry (anchorCount() fails)`);
    }
  };
  return {
    async verifyInclusion(seal: Hex32, leafIndex: number, treeSize: number, proof: readonly Hex32[]) {
      await (identified ??= identify());
      let answer: string;
      try {
        answer = await call("verifyInclusion", [seal, leafIndex, treeSize, [...proof]]);
      } catch (error) {
        const reverted =
          error instanceof JsonRpcError && error.data ? anchorRegistry.parseError(error.data) : null;
        // No head of that size on chain: the registry does not confirm it (never "not anchored yet").
        if (reverted?.name === "AnchorRegistryUnknownTreeSize") return false;
        throw error;
      }
      try {
        return anchorRegistry.decodeFunctionResult("verifyInclusion", answer)[0] === true;
      } catch {
        throw new NotARegistryError(
          registry,
          `answered verifyInclusion with ${answer.slice(0, 20)}…, not a bool`,
        );
      }
    },
  };
}
