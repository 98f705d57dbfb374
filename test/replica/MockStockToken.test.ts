import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { anyUint } from "@nomicfoundation/hardhat-chai-matchers/withArgs";
import { MockStockToken__factory, MockUSDG__factory } from "../../typechain-types";
import { announceReplicaMode, deployReplica } from "../shared/replica";

const ONE = 10n ** 18n;

async function deployToken() {
  const [owner, other] = await ethers.getSigners();
  const token = await new MockStockToken__factory(owner!).deploy("NVIDIA (replica)", "NVDA", owner!.address);
  const usdg = await new MockUSDG__factory(owner!).deploy();
  return { token, usdg, owner: owner!, other: other! };
}

describe("replica mocks: USDG and the ERC-8056 stock token", function () {
  before(announceReplicaMode);

  it("USDG has 6 decimals and mints for anyone", async function () {
    const { usdg, other } = await loadFixture(deployToken);
    expect(await usdg.decimals()).to.equal(6n);
    expect(await usdg.symbol()).to.equal("USDG");
    await usdg.connect(other).mint(other.address, 1_500_000n);
    expect(await usdg.balanceOf(other.address)).to.equal(1_500_000n);
  });

  it("stock token has 18 decimals; only the owner mints", async function () {
    const { token, owner, other } = await loadFixture(deployToken);
    expect(await token.decimals()).to.equal(18n);
    await token.mint(other.address, 3n * ONE);
    expect(await token.balanceOf(other.address)).to.equal(3n * ONE);
    await expect(token.connect(other).mint(other.address, 1n))
      .to.be.revertedWithCustomError(token, "OwnableUnauthorizedAccount")
      .withArgs(other.address);
    expect(await token.owner()).to.equal(owner.address);
  });

  it("starts at a 1.0 multiplier with nothing pending", async function () {
    const { token } = await loadFixture(deployToken);
    expect(await token.uiMultiplier()).to.equal(ONE);
    expect(await token.newUIMultiplier()).to.equal(ONE);
    expect(await token.effectiveAt()).to.be.at.most(BigInt(await time.latest()));
  });

  it("a scheduled split shows only from effectiveAt, and never changes raw balances", async function () {
    const { token, other } = await loadFixture(deployToken);
    await token.mint(other.address, 10n * ONE);
    const at = (await time.latest()) + 3600;
    await expect(token.setUIMultiplier(2n * ONE, at))
      .to.emit(token, "UIMultiplierUpdated")
      .withArgs(ONE, 2n * ONE, anyUint, at);
    expect(await token.newUIMultiplier()).to.equal(2n * ONE);
    expect(await token.effectiveAt()).to.equal(BigInt(at));
    expect(await token.uiMultiplier()).to.equal(ONE);
    expect(await token.balanceOfUI(other.address)).to.equal(10n * ONE);

    await time.increaseTo(at - 1);
    expect(await token.uiMultiplier()).to.equal(ONE);
    await time.increaseTo(at);
    expect(await token.uiMultiplier()).to.equal(2n * ONE);
    expect(await token.balanceOf(other.address)).to.equal(10n * ONE);
    expect(await token.balanceOfUI(other.address)).to.equal(20n * ONE);
    expect(await token.toUIAmount(3n)).to.equal(6n);
    expect(await token.fromUIAmount(6n)).to.equal(3n);
  });

  it("rescheduling before effectiveAt keeps the multiplier in force", async function () {
    const { token } = await loadFixture(deployToken);
    const now = await time.latest();
    await token.setUIMultiplier(2n * ONE, now + 100);
    await expect(token.setUIMultiplier(ONE / 2n, now + 200))
      .to.emit(token, "UIMultiplierUpdated")
      .withArgs(ONE, ONE / 2n, anyUint, now + 200);
    await time.increaseTo(now + 150);
    expect(await token.uiMultiplier()).to.equal(ONE); // the dropped 2.0 never took effect
    await time.increaseTo(now + 200);
    expect(await token.uiMultiplier()).to.equal(ONE / 2n);
  });

  it("an immediate change applies in the same block", async function () {
    const { token } = await loadFixture(deployToken);
    const next = (await time.latest()) + 1;
    await time.setNextBlockTimestamp(next);
    // ERC-8056's four-field event: old, new, the second it was set, the second it takes effect.
    await expect(token.setUIMultiplier(3n * ONE, next))
      .to.emit(token, "UIMultiplierUpdated")
      .withArgs(ONE, 3n * ONE, next, next);
    expect(await token.uiMultiplier()).to.equal(3n * ONE);
  });

  it("rejects a zero multiplier, a past schedule and a stranger", async function () {
    const { token, other } = await loadFixture(deployToken);
    const now = await time.latest();
    await expect(token.setUIMultiplier(0n, now + 10)).to.be.revertedWithCustomError(
      token,
      "MockStockTokenZeroMultiplier",
    );
    await time.setNextBlockTimestamp(now + 5);
    await expect(token.setUIMultiplier(ONE, now + 4))
      .to.be.revertedWithCustomError(token, "MockStockTokenEffectiveAtInPast")
      .withArgs(now + 4, now + 5);
    await expect(token.connect(other).setUIMultiplier(ONE, now + 100))
      .to.be.revertedWithCustomError(token, "OwnableUnauthorizedAccount")
      .withArgs(other.address);
  });

  it("every stock of the surface answers the ERC-8056 views consistently", async function () {
    const replica = await loadFixture(deployReplica);
    const now = BigInt(await time.latest());
    for (const s of replica.stocks) {
      const [current, pending, effectiveAt] = await Promise.all([
        s.token.uiMultiplier(),
        s.token.newUIMultiplier(),
        s.token.effectiveAt(),
      ]);
      expect(current).to.be.greaterThan(0n);
      if (effectiveAt <= now) expect(current).to.equal(pending);
    }
  });
});
