import { expect } from "chai";
import { ethers } from "hardhat";
import type { FastifyInstance } from "fastify";
import type { TransactionReceipt } from "ethers";
import { verifyInclusion, type Hex32 } from "@augur/scorer";
import type { AnchorReceipt, Keeper, LogHead, Store } from "@augur/engine";
import type { AnchorRegistry } from "../../typechain-types";

/**
 * The cycle's keeper seam over a deployed AnchorRegistry: posts each head with its consistency
 * proof from the previous one, and keeps every mined receipt so a test can total the keeper's gas.
 */
export class RegistryKeeper implements Keeper {
  readonly receipts: TransactionReceipt[] = [];
  constructor(
    private readonly store: Store,
    private readonly registry: AnchorRegistry,
  ) {}

  async anchor(head: LogHead, previous: AnchorReceipt | undefined): Promise<AnchorReceipt> {
    const proof = previous
      ? await this.store.log.consistencyProof(this.store.db, previous.treeSize, head.treeSize)
      : [];
    const receipt = (await (await this.registry.post(head.treeSize, head.root, proof)).wait())!;
    this.receipts.push(receipt);
    const block = (await ethers.provider.getBlock(receipt.blockNumber))!;
    return {
      anchorIndex: Number(await this.registry.anchorCount()) - 1,
      treeSize: head.treeSize,
      root: head.root,
      chainId: Number((await ethers.provider.getNetwork()).chainId),
      registry: (await this.registry.getAddress()).toLowerCase(),
      txHash: receipt.hash as Hex32,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash as Hex32,
      anchoredAt: block.timestamp,
    };
  }

  /** What the keeper paid in gas, wei: Σ gasUsed × gasPrice of its mined posts. */
  feesWei(): bigint {
    return this.receipts.reduce((sum, r) => sum + r.gasUsed * r.gasPrice, 0n);
  }
}

/**
 * Every leaf the store holds has its proof served at `/api/v1/anchors/leaves/:seal`, and that
 * proof verifies against the root read from the registry on chain (not the store's own copy).
 * Returns the number of leaves checked.
 */
export async function expectEveryProofOnChain(
  app: FastifyInstance,
  store: Store,
  registry: AnchorRegistry,
): Promise<number> {
  const leaves = await store.db.selectFrom("merkle_leaves").select(["seal", "leaf_index"]).execute();
  for (const leaf of leaves) {
    const res = await app.inject(`/api/v1/anchors/leaves/${leaf.seal}`);
    expect(res.statusCode, `leaf ${leaf.leaf_index}: ${res.body}`).to.equal(200);
    const { anchor, proof } = res.json();
    const root = (await registry.rootOf(proof.treeSize)) as string;
    expect(root, `leaf ${leaf.leaf_index}`).to.equal(anchor.root);
    expect(
      verifyInclusion(leaf.seal as Hex32, { ...proof, proof: proof.hashes, root }),
      `leaf ${leaf.leaf_index}`,
    ).to.equal(true);
  }
  return leaves.length;
}
