import { Contract, type Signer } from "ethers";
import type { Hex32 } from "@augur/scorer";
import { ANCHOR_REGISTRY_ABI, anchorRegistry } from "../chain/abi/anchor-registry";
import type { FinalNoticePoster } from "../modes/final";

const FINAL_NOTICE_TOPIC = anchorRegistry.getEvent("FinalNotice")!.topicHash;

/**
 * Posts the final notice's seal with `AnchorRegistry.postFinalNotice` from the keeper's account
 * and waits for it to be mined. A rerun after a crash finds the same seal already posted and
 * returns the transaction that posted it; another seal already posted is the registry's refusal.
 */
export function registryFinalPoster(signer: Signer, registry: string): FinalNoticePoster {
  const contract = new Contract(registry, ANCHOR_REGISTRY_ABI, signer);
  return async (seal: Hex32) => {
    const provider = signer.provider!;
    const chainId = Number((await provider.getNetwork()).chainId);
    const posted = ((await contract.getFunction("finalNotice").staticCall()) as string).toLowerCase();
    if (posted === seal) {
      const [log] = await provider.getLogs({
        address: registry,
        topics: [FINAL_NOTICE_TOPIC, seal],
        fromBlock: 0,
        toBlock: "latest",
      });
      if (log) return { chainId, registry, txHash: log.transactionHash, blockNumber: log.blockNumber };
    }
    const tx = await contract.getFunction("postFinalNotice").send(seal);
    const receipt = await tx.wait();
    if (!receipt || receipt.status !== 1) throw new Error(`postFinalNotice ${tx.hash} did not succeed`);
    return { chainId, registry, txHash: receipt.hash, blockNumber: receipt.blockNumber };
  };
}
