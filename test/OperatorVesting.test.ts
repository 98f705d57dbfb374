import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { BrowserProvider } from "ethers";
import { anchorStep, modesStep, openStore, readReceipt, runCycle, vestingBurner } from "@augur/engine";
import { declareWindDown } from "@augur/engine/test-support";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";

const DAY = 86_400;
const DEAD = "0x000000000000000000000000000000000000dEaD";
const WHOLE = 10n ** 18n;
const ALLOCATION = 1_000_000n * WHOLE;

/** The operator allocation: 1,000,000 tokens vesting linearly over 100 days from now. */
async function vestingFixture() {
  const [issuer, operator, stranger] = await ethers.getSigners();
  const token = await (
    await ethers.getContractFactory("MockStockToken")
  ).deploy("OAIA (test)", "OAIA", issuer!.address);
  const start = (await time.latest()) + 60;
  const vesting = await (
    await ethers.getContractFactory("OperatorVesting")
  ).deploy(operator!.address, start, 100 * DAY);
  await token.mint(await vesting.getAddress(), ALLOCATION);
  return { token, vesting, start, operator: operator!, stranger: stranger! };
}

describe("OperatorVesting", () => {
  it("Any unvested operator allocation is burned: at wind-down the unvested part goes to 0x…dEaD, the vested part stays releasable, nothing vests after", async () => {
    const { token, vesting, start, operator } = await loadFixture(vestingFixture);
    const asOperator = vesting.connect(operator);
    const tokenAddress = await token.getAddress();
    const release = asOperator.getFunction("release(address)");
    await time.setNextBlockTimestamp(start + 25 * DAY);
    await release(tokenAddress); // a quarter vested and released
    expect(await token.balanceOf(operator.address)).to.equal(ALLOCATION / 4n);

    await time.setNextBlockTimestamp(start + 40 * DAY);
    await expect(asOperator.burnUnvested(tokenAddress))
      .to.emit(vesting, "UnvestedBurned")
      .withArgs(tokenAddress, 600_000n * WHOLE, start + 40 * DAY);
    expect(await token.balanceOf(DEAD)).to.equal(600_000n * WHOLE);
    // 400,000 had vested, 250,000 were released: 150,000 remain, all releasable, forever.
    expect(await token.balanceOf(await vesting.getAddress())).to.equal(150_000n * WHOLE);
    await time.increaseTo(start + 200 * DAY);
    expect(await vesting.getFunction("releasable(address)")(tokenAddress)).to.equal(150_000n * WHOLE);
    await release(tokenAddress);
    expect(await token.balanceOf(operator.address)).to.equal(400_000n * WHOLE);
    expect(
      await vesting.getFunction("vestedAmount(address,uint64)")(tokenAddress, start + 300 * DAY),
    ).to.equal(400_000n * WHOLE);
    await expect(asOperator.burnUnvested(tokenAddress))
      .to.be.revertedWithCustomError(vesting, "OperatorVestingAlreadyBurned")
      .withArgs(tokenAddress);
  });

  it("the wind-down stops the schedule for every token, and only the operator can burn", async () => {
    const { token, vesting, start, operator, stranger } = await loadFixture(vestingFixture);
    const tokenAddress = await token.getAddress();
    await expect(vesting.connect(stranger).burnUnvested(tokenAddress))
      .to.be.revertedWithCustomError(vesting, "OwnableUnauthorizedAccount")
      .withArgs(stranger.address);
    const other = await (
      await ethers.getContractFactory("MockStockToken")
    ).deploy("Other", "OTH", operator.address);
    await other.connect(operator).mint(await vesting.getAddress(), 1_000n * WHOLE);
    await time.setNextBlockTimestamp(start + 10 * DAY);
    await vesting.connect(operator).burnUnvested(tokenAddress);
    expect(await vesting.windDownAt()).to.equal(start + 10 * DAY);
    // A second token burned later is still cut at the wind-down's moment: 10 % vested.
    await time.setNextBlockTimestamp(start + 50 * DAY);
    await expect(vesting.connect(operator).burnUnvested(await other.getAddress()))
      .to.emit(vesting, "UnvestedBurned")
      .withArgs(await other.getAddress(), 900n * WHOLE, start + 10 * DAY);
    expect(await token.balanceOf(DEAD)).to.equal(900_000n * WHOLE);
  });

  it("the wind-down task burns whatever is unvested at that moment, and the final receipt shows the burn", async () => {
    const { token, vesting, start, operator } = await loadFixture(vestingFixture);
    const tokenAddress = await token.getAddress();
    const vestingAddress = await vesting.getAddress();
    const fromBlock = (await ethers.provider.getBlockNumber()) + 1;
    await time.setNextBlockTimestamp(start + 30 * DAY);
    const args = { vesting: vestingAddress, token: tokenAddress, account: "1", json: true };
    const done = (await hre.run("vesting:burn-unvested", args)) as {
      amount: string;
      block: number;
      tx: string;
    };
    expect(done.amount).to.equal((700_000n * WHOLE).toString());
    let refused: unknown;
    await hre.run("vesting:burn-unvested", args).catch((e: unknown) => (refused = e));
    expect((refused as Error).message).to.match(/was burned already/);

    // The receipt, with the vesting contract among the operator wallets: an operator burn.
    const provider = new BrowserProvider(hre.network.provider);
    const toBlock = await ethers.provider.getBlockNumber();
    const { receipt } = await readReceipt(provider, {
      fromBlock,
      toBlock,
      token: tokenAddress,
      operators: [operator.address, vestingAddress],
    });
    expect(receipt.burns.map((b) => [b.from, b.to, b.amount, b.tx, b.block])).to.deep.equal([
      [vestingAddress.toLowerCase(), DEAD.toLowerCase(), done.amount, done.tx, done.block],
    ]);
    expect(receipt.assets.find((a) => a.asset === tokenAddress.toLowerCase())).to.deep.include({
      burned: done.amount,
      burnedByOperators: done.amount,
      spent: "0",
    });
  });

  it('"Any unvested operator allocation is burned": entering wind-down, the cycle burns what is unvested, once across restarts, and the receipt shows the burn', async () => {
    const { token, vesting, start, operator } = await loadFixture(vestingFixture);
    const allocation = { vesting: await vesting.getAddress(), token: await token.getAddress() };
    const fromBlock = (await ethers.provider.getBlockNumber()) + 1;
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      const now = start + 40 * DAY;
      const cycle = async () => {
        // Each pass with a new burner: a restarted engine knows nothing but what the chain says.
        const steps = [anchorStep(), modesStep(undefined, vestingBurner(operator, allocation))];
        return (await runCycle({ store, steps, now: () => now })).mode!;
      };
      expect((await cycle()).burn).to.equal(undefined); // active: nothing is burned
      await declareWindDown(store, "2027-01-01", now);
      await time.setNextBlockTimestamp(now);
      const first = await cycle();
      expect(first).to.deep.include({ mode: "wind-down" });
      if (first.burn?.status !== "burned") throw new Error(`expected a burn, got ${first.burn?.status}`);
      expect(first.burn.amount).to.equal(600_000n * WHOLE); // day 40 of 100: 60 % unvested
      expect(first.burn.windDownAt).to.equal(now);
      expect(await token.balanceOf(DEAD)).to.equal(600_000n * WHOLE);
      const nonce = await ethers.provider.getTransactionCount(operator.address);
      expect((await cycle()).burn).to.deep.equal({ status: "already", windDownAt: now });
      expect(await ethers.provider.getTransactionCount(operator.address)).to.equal(nonce); // nothing sent

      const { receipt } = await readReceipt(new BrowserProvider(hre.network.provider), {
        fromBlock,
        toBlock: await ethers.provider.getBlockNumber(),
        token: allocation.token,
        operators: [operator.address, allocation.vesting],
      });
      expect(receipt.burns.map((b) => [b.from, b.to, b.amount, b.tx, b.block])).to.deep.equal([
        [
          allocation.vesting.toLowerCase(),
          DEAD.toLowerCase(),
          first.burn.amount.toString(),
          first.burn.tx,
          first.burn.block,
        ],
      ]);
    } finally {
      await store.close();
    }
  });
});
