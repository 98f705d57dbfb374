import { expect } from "chai";
import { artifacts, ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { Interface } from "ethers";
import { announceReplicaMode, deployReplica } from "../shared/replica";
import {
  MULTICALL3_ADDRESS,
  multicall3,
  readBatch,
  type BatchedRead,
} from "../../packages/engine/src/chain/abi/multicall3";
import { DEFAULT_CONFIG_PATH, readChainConfig } from "../../scripts/replica/chains";
import { installMulticall3 } from "../../scripts/replica/multicall";

const erc20 = new Interface([
  "function balanceOf(address) view returns (uint256)",
  "function decimals() view returns (uint8)",
]);

describe("Multicall3 at its canonical address (replica and fork)", () => {
  before(() => announceReplicaMode());

  it("batches balance reads in one eth_call, equal to the single reads, a reverting read as undefined", async () => {
    const replica = await loadFixture(deployReplica);
    expect(await ethers.provider.getCode(MULTICALL3_ADDRESS)).to.not.equal("0x");
    const holders = [
      replica.trader.address,
      replica.deployer.address,
      ...replica.stocks.map((s) => s.poolAddress),
    ];
    const tokens = [await replica.usdg.getAddress(), ...replica.stocks.map((s) => s.address)];
    const reads: BatchedRead[] = tokens.flatMap((target) =>
      holders.map((holder) => ({ target, iface: erc20, fn: "balanceOf", args: [holder] })),
    );
    // A call that reverts (Multicall3 has no decimals()) must not sink the batch.
    reads.push({ target: MULTICALL3_ADDRESS, iface: erc20, fn: "decimals", args: [] });
    reads.push({ target: MULTICALL3_ADDRESS, iface: multicall3, fn: "getBlockNumber", args: [] });
    const block = await ethers.provider.getBlockNumber();
    const results = await readBatch(ethers.provider, reads, block);
    expect(results).to.have.length(reads.length);
    for (const [i, read] of reads.slice(0, -2).entries()) {
      const single = await ethers.provider.call({
        to: read.target,
        data: erc20.encodeFunctionData("balanceOf", read.args as unknown[]),
        blockTag: block,
      });
      expect(results[i]![0], `balanceOf ${String(read.args[0])} on ${read.target}`).to.equal(BigInt(single));
    }
    expect(results.at(-2)).to.equal(undefined);
    expect(results.at(-1)![0]).to.equal(BigInt(block));
  });

  it("is installed once on the replica, from our own compiled source, and recorded for Robinhood Chain", async () => {
    const replica = await loadFixture(deployReplica);
    if (replica.mode === "replica") {
      const { deployedBytecode } = await artifacts.readArtifact("ReplicaMulticall3");
      expect(await ethers.provider.getCode(MULTICALL3_ADDRESS)).to.equal(deployedBytecode);
    }
    // A second install finds the code and leaves it alone (the build put it there, or the fork had it).
    expect(await installMulticall3()).to.equal(false);
    const mainnet = readChainConfig(DEFAULT_CONFIG_PATH).chains["4663"]!;
    expect(mainnet.multicall3).to.equal(MULTICALL3_ADDRESS);
    expect(String(mainnet.multicall3Source)).to.match(/viem/);
  });
});
