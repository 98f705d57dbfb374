import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { lpLockAlarm } from "@augur/scorer";
import { listStewardshipDays, openStore, readLpLock, recordStewardshipDays } from "@augur/engine";
import { LiquidityLock__factory } from "../typechain-types";
import { DAY, openTokenMonitor, projectTokenChain } from "./shared/projectToken";

/**
 * Seed 002: "The operator will not withdraw, and will not attempt to circumvent, the LP timelock
 * before its expiry." The project token's full-range position (minted to the replica's deployer,
 * the operator) goes into a LiquidityLock; the contract refuses every early way out, and the
 * stewardship monitor reads the lock every day and raises the alarm when a position it watches
 * is not where the lock says.
 */
async function lockedPosition() {
  const chain = await projectTokenChain();
  const [operator, stranger] = await ethers.getSigners();
  const manager = chain.project.positionManager;
  const managerAddress = await manager.getAddress();
  const position = (await manager.getFunction("tokenOfOwnerByIndex")(operator!.address, 0)) as bigint;
  const unlockAt = (await time.latest()) + 90 * DAY;
  const lock = await new LiquidityLock__factory(operator).deploy(managerAddress, operator!.address, unlockAt);
  const lockAddress = await lock.getAddress();
  await (
    await manager.connect(operator!).getFunction("safeTransferFrom(address,address,uint256)")(
      operator!.address,
      lockAddress,
      position,
    )
  ).wait();
  return { chain, operator: operator!, stranger: stranger!, manager, lock, lockAddress, position, unlockAt };
}

describe("LiquidityLock: the operator will not withdraw … the LP timelock before its expiry", () => {
  it("holds the position: no early withdrawal, no stranger, no other NFT; the beneficiary only after expiry", async () => {
    const { operator, stranger, manager, lock, lockAddress, position, unlockAt } =
      await loadFixture(lockedPosition);
    expect(await manager.getFunction("ownerOf")(position)).to.equal(lockAddress);
    expect(await lock.unlockAt()).to.equal(BigInt(unlockAt));

    await expect(lock.connect(operator).withdraw(position, operator.address))
      .to.be.revertedWithCustomError(lock, "LiquidityLockStillLocked")
      .withArgs(position, unlockAt, (t: bigint) => t < BigInt(unlockAt));
    await expect(lock.connect(stranger).withdraw(position, stranger.address))
      .to.be.revertedWithCustomError(lock, "LiquidityLockNotBeneficiary")
      .withArgs(stranger.address);
    await expect(lock.onERC721Received(operator.address, operator.address, 1n, "0x"))
      .to.be.revertedWithCustomError(lock, "LiquidityLockWrongToken")
      .withArgs(operator.address);

    await time.increaseTo(unlockAt);
    await expect(lock.connect(operator).withdraw(position, operator.address))
      .to.emit(lock, "PositionWithdrawn")
      .withArgs(position, operator.address);
    expect(await manager.getFunction("ownerOf")(position)).to.equal(operator.address);
  });

  it("refuses a zero beneficiary and an expiry that is not in the future", async () => {
    const [operator] = await ethers.getSigners();
    const factory = new LiquidityLock__factory(operator);
    const now = await time.latest();
    await expect(
      factory.deploy(operator!.address, ethers.ZeroAddress, now + DAY),
    ).to.be.revertedWithCustomError(factory, "LiquidityLockZeroBeneficiary");
    await expect(factory.deploy(operator!.address, operator!.address, now)).to.be.revertedWithCustomError(
      factory,
      "LiquidityLockExpiryInPast",
    );
  });

  it("the monitor seals the lock's reading every day, and raises the alarm when the position is not in it", async () => {
    const { chain, operator, lockAddress, position, unlockAt } = await loadFixture(lockedPosition);
    const reading = await readLpLock(
      ethers.provider,
      { lock: lockAddress.toLowerCase(), position: position.toString() },
      await ethers.provider.getBlockNumber(),
    );
    expect(reading).to.include({
      holder: lockAddress.toLowerCase(),
      unlockAt,
      position: position.toString(),
    });
    expect(BigInt(reading.liquidity)).to.be.greaterThan(0n);
    expect(lpLockAlarm(reading, unlockAt - 1)).to.equal(null);

    // The monitor follows the lock, and a second lock that was never given the position: the
    // second one's reading has the position outside it before its expiry, the public alarm.
    const elsewhere = await new LiquidityLock__factory(operator).deploy(
      await chain.project.positionManager.getAddress(),
      operator.address,
      unlockAt,
    );
    const elsewhereAddress = (await elsewhere.getAddress()).toLowerCase();
    await time.increaseTo(chain.midnight + 2 * DAY + 60);
    await ethers.provider.send("evm_mine", []);
    const now = chain.midnight + 2 * DAY + 60;
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    const alarmed = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      const watch = (lock: string) => ({ lock, position: position.toString() });
      await recordStewardshipDays(
        store,
        await openTokenMonitor(store, chain, [operator], undefined, watch(lockAddress.toLowerCase())),
        now,
      );
      const days = await listStewardshipDays(store.db);
      expect(days.length).to.be.greaterThan(0);
      for (const d of days)
        expect(d.body.lpLock).to.include({ holder: lockAddress.toLowerCase(), alarm: null });

      await recordStewardshipDays(
        alarmed,
        await openTokenMonitor(alarmed, chain, [operator], undefined, watch(elsewhereAddress)),
        now,
      );
      const alarms = (await listStewardshipDays(alarmed.db)).map((d) => d.body.lpLock?.alarm);
      expect(alarms.length).to.equal(days.length);
      for (const alarm of alarms)
        expect(alarm).to.equal(
          `the position ${position} left the lock before its expiry: it is held by ${lockAddress.toLowerCase()}`,
        );
      const unknown = await readLpLock(
        ethers.provider,
        { lock: lockAddress.toLowerCase(), position: "999999" },
        await ethers.provider.getBlockNumber(),
      ).catch((e: unknown) => e);
      expect((unknown as Error).message).to.match(/ownerOf\(\) failed/);
    } finally {
      await store.close();
      await alarmed.close();
    }
  });
});
