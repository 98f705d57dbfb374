import { Contract, JsonRpcProvider } from "ethers";
import type { Hex32 } from "@augur/scorer";
import type { HeadChecker } from "./verify-score";

// Only the view `augur verify` needs; the registry checks the proof against a head it stored.
const ANCHOR_REGISTRY_ABI = [
  "function verifyInclusion(bytes32 seal, uint64 leafIndex, uint64 treeSize, bytes32[] proof) view returns (bool)",
];

/** Checks heads on chain through AnchorRegistry.verifyInclusion at `registry` over `rpcUrl`. */
export function registryHeadChecker(rpcUrl: string, registry: string): HeadChecker {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  const contract = new Contract(registry, ANCHOR_REGISTRY_ABI, provider);
  return {
    async verifyInclusion(seal: Hex32, leafIndex: number, treeSize: number, proof: readonly Hex32[]) {
      return (
        (await contract.getFunction("verifyInclusion").staticCall(seal, leafIndex, treeSize, [...proof])) ===
        true
      );
    },
  };
}
