import { ethers } from "hardhat";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { replicaOnce } from "./replica";

/** The oracle's asset standing for ETH on this chain (the replica has no WETH: any address works). */
export const ETH_ASSET = "0x00000000000000000000000000000000000e7e7e";

/**
 * The final receipt's scene on the replica, for `loadFixture` (Receipt and Modes tests): the
 * keeper, a settler, two operators, a holder (alice), a bystander (bob) and a price pusher; a
 * PriceOracle the pusher prices the first stock and ETH_ASSET in; an AnchorRegistry the keeper posts to.
 */
export async function receiptScene() {
  const replica = await replicaOnce();
  const [keeper, settler, opA, opB, alice, bob, pusher] = (await ethers.getSigners()).slice(
    10,
    17,
  ) as HardhatEthersSigner[] & Record<number, HardhatEthersSigner>;
  const oracle = await (
    await ethers.getContractFactory("PriceOracle")
  ).deploy(await replica.usdg.getAddress(), 300, replica.deployer.address);
  const stock = replica.stocks[0]!;
  for (const asset of [stock.address, ETH_ASSET])
    await (await oracle.setUpdater(asset, pusher!.address)).wait();
  const registry = await (
    await ethers.getContractFactory("AnchorRegistry")
  ).deploy(replica.deployer.address, keeper!.address);
  return {
    replica,
    stock,
    oracle,
    registry: registry.connect(keeper!),
    keeper: keeper!,
    settler: settler!,
    opA: opA!,
    opB: opB!,
    alice: alice!,
    bob: bob!,
    pusher: pusher!,
  };
}
