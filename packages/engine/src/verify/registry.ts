import { Contract, JsonRpcProvider } from "ethers";
import type { Hex32 } from "@augur/scorer";
import { anchorRegistry } from "../chain/abi/anchor-registry";
import type { HeadChecker } from "./verify-score";

/**
 * Checks heads on chain through AnchorRegistry.verifyInclusion at `registry` over `rpcUrl` (the
 * registry checks the proof against a head it stored). Only that view: `augur verify` needs no more.
 */
export function registryHeadChecker(rpcUrl: string, registry: string): HeadChecker {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  const contract = new Contract(registry, [anchorRegistry.getFunction("verifyInclusion")!], provider);
  return {
    async verifyInclusion(seal: Hex32, leafIndex: number, treeSize: number, proof: readonly Hex32[]) {
      return (
        (await contract.getFunction("verifyInclusion").staticCall(seal, leafIndex, treeSize, [...proof])) ===
        true
      );
    },
  };
}
