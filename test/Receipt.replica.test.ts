import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { BrowserProvider, type ContractTransactionResponse, type TransactionResponse } from "ethers";
import { readReceipt } from "@augur/engine";
import { announceReplicaMode } from "./shared/replica";
import { ETH_ASSET, receiptScene } from "./shared/receipt";

/**
 * The final receipt on the replica, complete: operator wallets send a stock token, USDG and ETH,
 * burn tokens and move some between themselves; a holder burns; the keeper and a separate settler
 * pay gas. A real PriceOracle (pushed prices) values every line; the receipt rebuilt from the
 * chain alone must give exactly the scripted amounts per asset, in USDG, and every fee.
 */
const DEAD = "0x000000000000000000000000000000000000dEaD";
const E18 = 10n ** 18n;

describe("the complete final receipt on the replica", function () {
  this.timeout(300_000);
  before(() => announceReplicaMode());

  it("a final receipt … of everything spent and everything burned: every asset the operators sent, ETH, burns, the keeper's and the settler's gas, in USDG at the time", async () => {
    const { replica, oracle, stock, keeper, settler, opA, opB, alice, bob, pusher } =
      await loadFixture(receiptScene);
    const one = 10n ** BigInt(await stock.token.decimals());
    const usdgUnit = 10n ** BigInt(replica.usdgDecimals);
    await replica.fund(opA.address, stock, 100n * one);
    await replica.fund(opB.address, stock, 100n * one);
    await replica.fund(alice.address, stock, 10n * one);
    await replica.fund(opB.address, "USDG", 1_000n * usdgUnit);
    const push = oracle.connect(pusher);
    await (await push.pushPrice(stock.address, 2n * E18)).wait(); // 2 USDG a share
    await (await push.pushPrice(ETH_ASSET, 3_000n * E18)).wait(); // 3,000 USDG an ETH

    const fromBlock = (await ethers.provider.getBlockNumber()) + 1;
    const mined = async (sent: Promise<ContractTransactionResponse | TransactionResponse>) =>
      (await (await sent).wait())!;
    const gasOf = async (sent: Promise<ContractTransactionResponse | TransactionResponse>) => {
      const r = await mined(sent);
      return r.gasUsed * r.gasPrice;
    };
    await mined(stock.token.connect(opA).transfer(alice.address, 10n * one)); // spent: 10 shares
    await mined(opA.sendTransaction({ to: bob.address, value: E18 / 2n })); // spent: 0.5 ETH
    await mined(replica.usdg.connect(opB).transfer(bob.address, 100n * usdgUnit)); // spent: 100 USDG (funding)
    await mined(stock.token.connect(opA).transfer(opB.address, 3n * one)); // internal: not spent
    await mined(stock.token.connect(opB).transfer(DEAD, 5n * one)); // burned by an operator
    await mined(stock.token.connect(alice).transfer(DEAD, 1n * one)); // burned by a holder
    const keeperFee = await gasOf(keeper.sendTransaction({ to: keeper.address, value: 0n }));
    const settlerFee = await gasOf(settler.sendTransaction({ to: settler.address, value: 0n }));
    const toBlock = await ethers.provider.getBlockNumber();

    const provider = new BrowserProvider(hre.network.provider);
    const args = {
      fromBlock,
      toBlock,
      token: stock.address,
      operators: [opB.address, opA.address],
      keeper: keeper.address,
      settler: settler.address,
      oracle: await oracle.getAddress(),
      eth: ETH_ASSET,
    };
    const { seal, receipt } = await readReceipt(provider, args);
    expect((await readReceipt(provider, { ...args, operators: [opA.address, opB.address] })).seal).to.equal(
      seal,
    );

    const asset = (name: string) => receipt.assets.find((t) => t.asset === name.toLowerCase())!;
    const a = opA.address.toLowerCase();
    const b = opB.address.toLowerCase();
    expect(asset(stock.address)).to.deep.include({
      spent: (10n * one).toString(),
      spentBy: { [a]: (10n * one).toString() },
      burned: (6n * one).toString(),
      burnedByOperators: (5n * one).toString(),
      usdg: { spent: (20n * usdgUnit).toString(), burned: (12n * usdgUnit).toString(), gas: "0" },
      unpriced: 0,
    });
    expect(asset(await replica.usdg.getAddress())).to.deep.include({
      spent: (100n * usdgUnit).toString(),
      spentBy: { [b]: (100n * usdgUnit).toString() },
      usdg: { spent: (100n * usdgUnit).toString(), burned: "0", gas: "0" },
    });
    const eth = asset("eth");
    expect(eth.spent).to.equal((E18 / 2n).toString());
    expect(eth.usdg.spent).to.equal((1_500n * usdgUnit).toString());

    // Gas: every operator transaction (5), the keeper's and the settler's, each valued as ETH.
    const byRole = (role: string) => receipt.gas.filter((g) => g.roles.includes(role as never));
    expect(byRole("operator")).to.have.length(5);
    expect(byRole("keeper").map((g) => BigInt(g.fee))).to.deep.equal([keeperFee]);
    expect(byRole("settler").map((g) => BigInt(g.fee))).to.deep.equal([settlerFee]);
    const fees = receipt.gas.reduce((sum, g) => sum + BigInt(g.fee), 0n);
    expect(eth.gas).to.equal(fees.toString());
    for (const g of receipt.gas) {
      expect(g.usdg).to.equal(((BigInt(g.fee) * 3_000n * E18 * usdgUnit) / E18 / E18).toString());
    }
    // Every line has its transaction and block; nothing is unpriced.
    for (const line of [...receipt.spends, ...receipt.burns]) {
      const r = await ethers.provider.getTransactionReceipt(line.tx);
      expect(r!.blockNumber).to.equal(line.block);
    }
    expect(receipt.totals.unpriced).to.equal(0);
    expect(receipt.totals.usdg.spent).to.equal((1_620n * usdgUnit).toString());
  });
});
