import { expect } from "chai";
import { ethers, network } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { anyUint } from "@nomicfoundation/hardhat-chai-matchers/withArgs";
import {
  ASSETS,
  DAY,
  Direction,
  Failure,
  HOUR,
  MIN_STAKE,
  ONE,
  Outcome,
  QUORUM,
  REVEAL_TIMEOUT,
  START_PRICE,
  Status,
  THRESHOLD_BPS,
  USDG,
  callIdFrom,
  commitCall,
  commitmentOf,
  expectedCallId,
  MAX_UINT128,
  hugeVotesFixture,
  ledgerFixture,
  makeCall,
  revealCall,
  revealIntoOneRound,
  type CallParams,
  type LedgerFixture,
} from "./shared/callLedger";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";

const CHAIN_ID = 31337n;

/** A fixture where agents 0..3 hold 1,000 USDG of stake. */
async function stakedFixture(): Promise<LedgerFixture> {
  const f = await ledgerFixture();
  for (const agent of f.agents.slice(0, 4)) await f.ledger.connect(agent).deposit(1000n * USDG);
  return f;
}

/** Commits `call` and reveals it in the next block; returns the id and the reveal time. */
async function openCall(f: LedgerFixture, agent: HardhatEthersSigner, call: CallParams) {
  const callId = await commitCall(f.ledger, agent, call);
  await revealCall(f.ledger, agent, callId, call);
  const revealedAt = BigInt(await time.latest());
  return { callId, revealedAt, closesAt: revealedAt + BigInt(call.window) };
}

/** Opens `call`, moves the oracle to `exitPrice` before `closesAt`, and settles after it. */
async function settleAt(f: LedgerFixture, agent: HardhatEthersSigner, call: CallParams, exitPrice: bigint) {
  const opened = await openCall(f, agent, call);
  await f.oracle.setPriceAt(call.asset, opened.closesAt, exitPrice);
  await time.increaseTo(opened.closesAt);
  await f.ledger.settle(opened.callId);
  return opened;
}

describe("CallLedger", () => {
  describe("deployment and admin", () => {
    it("stores its wiring and launch parameters, and announces them", async () => {
      const { ledger, usdg, oracle, admin } = await loadFixture(ledgerFixture);
      expect(await ledger.usdg()).to.equal(await usdg.getAddress());
      expect(await ledger.oracle()).to.equal(await oracle.getAddress());
      expect(await ledger.minStake()).to.equal(MIN_STAKE);
      expect(await ledger.owner()).to.equal(admin.address);
      expect(await ledger.revealTimeout()).to.equal(REVEAL_TIMEOUT);
      expect(await ledger.consensusQuorum()).to.equal(QUORUM);
      expect(await ledger.thresholdBps()).to.equal(THRESHOLD_BPS);
      const deployTx = ledger.deploymentTransaction()!;
      await expect(deployTx).to.emit(ledger, "RevealTimeoutSet").withArgs(REVEAL_TIMEOUT);
      await expect(deployTx).to.emit(ledger, "ConsensusQuorumSet").withArgs(QUORUM);
      await expect(deployTx).to.emit(ledger, "ThresholdSet").withArgs(THRESHOLD_BPS);
    });

    it("rejects a zero token, oracle, minimum stake or admin", async () => {
      const { ledger, usdg, oracle, admin } = await loadFixture(ledgerFixture);
      const factory = await ethers.getContractFactory("CallLedger");
      const [u, o] = [await usdg.getAddress(), await oracle.getAddress()];
      await expect(
        factory.deploy(ethers.ZeroAddress, o, MIN_STAKE, admin.address),
      ).to.be.revertedWithCustomError(ledger, "CallLedgerZeroAddress");
      await expect(
        factory.deploy(u, ethers.ZeroAddress, MIN_STAKE, admin.address),
      ).to.be.revertedWithCustomError(ledger, "CallLedgerZeroAddress");
      await expect(factory.deploy(u, o, 0, admin.address)).to.be.revertedWithCustomError(
        ledger,
        "CallLedgerZeroMinStake",
      );
      await expect(factory.deploy(u, o, MIN_STAKE, ethers.ZeroAddress))
        .to.be.revertedWithCustomError(ledger, "OwnableInvalidOwner")
        .withArgs(ethers.ZeroAddress);
    });

    it("lets the owner set windows and parameters, each evented and validated", async () => {
      const { ledger, admin } = await loadFixture(ledgerFixture);
      const owner = ledger.connect(admin);
      await expect(owner.setWindow(300, true)).to.emit(ledger, "WindowSet").withArgs(300, true);
      expect(await ledger.windowAllowed(300)).to.equal(true);
      await expect(owner.setWindow(300, false)).to.emit(ledger, "WindowSet").withArgs(300, false);
      expect(await ledger.windowAllowed(300)).to.equal(false);
      await expect(owner.setWindow(0, true)).to.be.revertedWithCustomError(ledger, "CallLedgerZeroWindow");

      await expect(owner.setRevealTimeout(600)).to.emit(ledger, "RevealTimeoutSet").withArgs(600);
      await expect(owner.setRevealTimeout(0))
        .to.be.revertedWithCustomError(ledger, "CallLedgerBadRevealTimeout")
        .withArgs(0);
      await expect(owner.setConsensusQuorum(5)).to.emit(ledger, "ConsensusQuorumSet").withArgs(5);
      await expect(owner.setConsensusQuorum(0))
        .to.be.revertedWithCustomError(ledger, "CallLedgerBadQuorum")
        .withArgs(0);
      await expect(owner.setThresholdBps(10_000)).to.emit(ledger, "ThresholdSet").withArgs(10_000);
      await expect(owner.setThresholdBps(5001)).to.emit(ledger, "ThresholdSet").withArgs(5001);
      for (const bad of [5000, 10_001, 0]) {
        await expect(owner.setThresholdBps(bad))
          .to.be.revertedWithCustomError(ledger, "CallLedgerBadThreshold")
          .withArgs(bad);
      }
    });

    it("refuses every admin call from anyone but the owner", async () => {
      const { ledger, outsider } = await loadFixture(ledgerFixture);
      const other = ledger.connect(outsider);
      // Each call is made only when awaited: a rejected promise left waiting would be unhandled.
      for (const send of [
        () => other.setWindow(300, true),
        () => other.setRevealTimeout(600),
        () => other.setConsensusQuorum(5),
        () => other.setThresholdBps(7000),
      ]) {
        await expect(send())
          .to.be.revertedWithCustomError(ledger, "OwnableUnauthorizedAccount")
          .withArgs(outsider.address);
      }
    });

    it("hands ownership over in two steps", async () => {
      const { ledger, admin, outsider } = await loadFixture(ledgerFixture);
      await ledger.connect(admin).transferOwnership(outsider.address);
      expect(await ledger.owner()).to.equal(admin.address);
      await ledger.connect(outsider).acceptOwnership();
      expect(await ledger.owner()).to.equal(outsider.address);
      await expect(ledger.connect(outsider).setWindow(300, true)).to.emit(ledger, "WindowSet");
    });
  });

  describe("stake", () => {
    it("deposits pull USDG and credit the stake", async () => {
      const { ledger, usdg, agents } = await loadFixture(ledgerFixture);
      const [agent] = agents;
      await expect(ledger.connect(agent!).deposit(150n * USDG))
        .to.emit(ledger, "Deposited")
        .withArgs(agent!.address, 150n * USDG, 150n * USDG);
      await expect(ledger.connect(agent!).deposit(50n * USDG))
        .to.emit(ledger, "Deposited")
        .withArgs(agent!.address, 50n * USDG, 200n * USDG);
      expect((await ledger.record(agent!.address)).stake).to.equal(200n * USDG);
      expect(await usdg.balanceOf(await ledger.getAddress())).to.equal(200n * USDG);
    });

    it("withdrawals send USDG back and debit the stake", async () => {
      const { ledger, usdg, agents } = await loadFixture(stakedFixture);
      const [agent] = agents;
      await expect(ledger.connect(agent!).withdraw(400n * USDG)).to.changeTokenBalances(
        usdg,
        [agent!, ledger],
        [400n * USDG, -400n * USDG],
      );
      await expect(ledger.connect(agent!).withdraw(600n * USDG))
        .to.emit(ledger, "Withdrawn")
        .withArgs(agent!.address, 600n * USDG, 0);
      expect((await ledger.record(agent!.address)).stake).to.equal(0);
    });

    it("rejects zero amounts, overdrafts and stakes past 96 bits", async () => {
      const { ledger, usdg, agents } = await loadFixture(stakedFixture);
      const [agent, fresh] = [agents[0]!, agents[7]!];
      await expect(ledger.connect(agent).deposit(0)).to.be.revertedWithCustomError(
        ledger,
        "CallLedgerZeroAmount",
      );
      await expect(ledger.connect(agent).withdraw(0)).to.be.revertedWithCustomError(
        ledger,
        "CallLedgerZeroAmount",
      );
      await expect(ledger.connect(agent).withdraw(1000n * USDG + 1n))
        .to.be.revertedWithCustomError(ledger, "CallLedgerInsufficientStake")
        .withArgs(1000n * USDG, 1000n * USDG + 1n);
      const max96 = 2n ** 96n - 1n;
      await usdg.mint(fresh.address, max96);
      await ledger.connect(fresh).deposit(max96 - 1_000_000n * USDG);
      await expect(ledger.connect(fresh).deposit(1_000_000n * USDG)).to.emit(ledger, "Deposited");
      await expect(ledger.connect(fresh).deposit(1))
        .to.be.revertedWithCustomError(ledger, "CallLedgerStakeTooLarge")
        .withArgs(max96 + 1n, max96);
    });

    it("keeps minStake locked while calls are open, and frees it once they resolve", async () => {
      const f = await loadFixture(stakedFixture);
      const [agent] = f.agents;
      const { callId, closesAt } = await openCall(f, agent!, makeCall());
      await expect(f.ledger.connect(agent!).withdraw(900n * USDG + 1n))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerStakeLocked")
        .withArgs(MIN_STAKE - 1n, MIN_STAKE, 1);
      await f.ledger.connect(agent!).withdraw(900n * USDG); // down to exactly minStake
      await time.increaseTo(closesAt);
      await f.ledger.settle(callId);
      await expect(f.ledger.connect(agent!).withdraw(MIN_STAKE))
        .to.emit(f.ledger, "Withdrawn")
        .withArgs(agent!.address, MIN_STAKE, 0);
    });

    it("also locks the stake behind a commit that is not revealed yet", async () => {
      const f = await loadFixture(stakedFixture);
      const [agent] = f.agents;
      await commitCall(f.ledger, agent!, makeCall());
      await expect(f.ledger.connect(agent!).withdraw(1000n * USDG))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerStakeLocked")
        .withArgs(0, MIN_STAKE, 1);
    });
  });

  describe("stake tokens", () => {
    async function ledgerOn(tokenName: string) {
      const f = await ledgerFixture();
      const token = await ethers.deployContract(tokenName);
      const ledger = await ethers.deployContract("CallLedger", [
        await token.getAddress(),
        await f.oracle.getAddress(),
        MIN_STAKE,
        f.admin.address,
      ]);
      const agent = f.agents[0]!;
      await (token.connect(agent) as typeof token).getFunction("approve")(
        await ledger.getAddress(),
        ethers.MaxUint256,
      );
      await token.getFunction("mint")(agent.address, 1000n * USDG);
      return { ...f, ledger, token, agent };
    }

    it("rejects a token that reports failure by returning false, on deposit and on withdraw", async () => {
      const { ledger, token, agent } = await ledgerOn("MockUSDGReturnsFalse");
      await ledger.connect(agent).deposit(500n * USDG);
      await token.getFunction("setFailing")(true);
      await expect(ledger.connect(agent).deposit(USDG))
        .to.be.revertedWithCustomError(ledger, "SafeERC20FailedOperation")
        .withArgs(await token.getAddress());
      await expect(ledger.connect(agent).withdraw(USDG))
        .to.be.revertedWithCustomError(ledger, "SafeERC20FailedOperation")
        .withArgs(await token.getAddress());
      expect((await ledger.record(agent.address)).stake).to.equal(500n * USDG);
    });

    it("works with a token whose transfers return nothing", async () => {
      const { ledger, token, agent } = await ledgerOn("MockUSDGNoReturn");
      await ledger.connect(agent).deposit(500n * USDG);
      await ledger.connect(agent).withdraw(200n * USDG);
      expect((await ledger.record(agent.address)).stake).to.equal(300n * USDG);
      expect(await token.getFunction("balanceOf")(agent.address)).to.equal(700n * USDG);
      // A failing transfer of such a token reverts inside it; the ledger credits nothing.
      await expect(ledger.connect(agent).deposit(10_000n * USDG)).to.be.revertedWithCustomError(
        token,
        "MockUSDGNoReturnInsufficient",
      );
    });

    it("rejects a fee-on-transfer token by the amount that actually arrived", async () => {
      const { ledger, agent } = await ledgerOn("MockUSDGFeeOnTransfer");
      await expect(ledger.connect(agent).deposit(100n * USDG))
        .to.be.revertedWithCustomError(ledger, "CallLedgerTransferShortfall")
        .withArgs(100n * USDG, 99n * USDG);
      expect((await ledger.record(agent.address)).stake).to.equal(0);
    });

    it("cannot be re-entered from the token during deposit or withdraw", async () => {
      const { ledger, token, agent } = await ledgerOn("MockUSDGReentrant");
      await ledger.connect(agent).deposit(500n * USDG);
      const ledgerAddress = await ledger.getAddress();
      await token.getFunction("setHook")(
        ledgerAddress,
        ledger.interface.encodeFunctionData("withdraw", [1n]),
      );
      await expect(ledger.connect(agent).withdraw(USDG)).to.be.revertedWithCustomError(
        ledger,
        "ReentrancyGuardReentrantCall",
      );
      await token.getFunction("setHook")(ledgerAddress, ledger.interface.encodeFunctionData("deposit", [1n]));
      await expect(ledger.connect(agent).deposit(USDG)).to.be.revertedWithCustomError(
        ledger,
        "ReentrancyGuardReentrantCall",
      );
      expect((await ledger.record(agent.address)).stake).to.equal(500n * USDG);
    });
  });

  describe("commit", () => {
    it("returns agent ‖ sequence ‖ commit time as the call id and emits it", async () => {
      const { ledger, agents } = await loadFixture(stakedFixture);
      const agent = agents[0]!;
      const commitment = commitmentOf(CHAIN_ID, await ledger.getAddress(), agent.address, makeCall());
      const t0 = BigInt(await time.latest()) + 10n;
      await time.setNextBlockTimestamp(t0);
      const first = expectedCallId(agent.address, 0n, t0);
      await expect(ledger.connect(agent).commit(commitment))
        .to.emit(ledger, "Committed")
        .withArgs(first, agent.address, commitment, t0);
      await time.setNextBlockTimestamp(t0 + 5n);
      const receipt = await (await ledger.connect(agent).commit(commitment)).wait();
      expect(callIdFrom(ledger, receipt)).to.equal(expectedCallId(agent.address, 1n, t0 + 5n));

      const stored = await ledger.getCall(first);
      expect(stored.agent).to.equal(agent.address);
      expect(stored.committedAt).to.equal(t0);
      expect(stored.status).to.equal(Status.Committed);
      expect(stored.commitment).to.equal(commitment);
      const record = await ledger.record(agent.address);
      expect([record.commits, record.openCalls]).to.deep.equal([2n, 2n]);
    });

    it("needs minStake and a non-zero commitment", async () => {
      const { ledger, agents } = await loadFixture(stakedFixture);
      const fresh = agents[6]!;
      await ledger.connect(fresh).deposit(MIN_STAKE - 1n);
      await expect(ledger.connect(fresh).commit(ethers.id("call")))
        .to.be.revertedWithCustomError(ledger, "CallLedgerStakeBelowMinimum")
        .withArgs(fresh.address, MIN_STAKE - 1n, MIN_STAKE);
      await ledger.connect(fresh).deposit(1n);
      await expect(ledger.connect(fresh).commit(ethers.id("call"))).to.emit(ledger, "Committed");
      await expect(ledger.connect(fresh).commit(ethers.ZeroHash)).to.be.revertedWithCustomError(
        ledger,
        "CallLedgerZeroCommitment",
      );
    });

    it("matches computeCommitment, the encoding agents hash off chain", async () => {
      const { ledger, agents } = await loadFixture(stakedFixture);
      const call = makeCall({ direction: Direction.Down, confidenceBps: 9100, window: DAY }, 77);
      expect(
        await ledger.computeCommitment(
          agents[0]!.address,
          call.asset,
          call.window,
          call.direction,
          call.confidenceBps,
          call.salt,
        ),
      ).to.equal(commitmentOf(CHAIN_ID, await ledger.getAddress(), agents[0]!.address, call));
    });
  });

  describe("reveal", () => {
    it("opens the call at the oracle price, closing one window later, and votes 1 + score", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const call = makeCall({ direction: Direction.Down, confidenceBps: 8000 });
      const callId = await commitCall(f.ledger, agent, call);
      const t = BigInt(await time.latest()) + 7n;
      await time.setNextBlockTimestamp(t);
      await expect(revealCall(f.ledger, agent, callId, call))
        .to.emit(f.ledger, "Revealed")
        .withArgs(
          callId,
          agent.address,
          call.asset,
          HOUR,
          Direction.Down,
          8000,
          call.salt,
          START_PRICE,
          t + BigInt(HOUR),
          ONE,
        );
      const stored = await f.ledger.getCall(callId);
      expect(stored.status).to.equal(Status.Revealed);
      expect(stored.commitment).to.equal(ethers.ZeroHash);
      expect([stored.asset, stored.window, stored.direction, stored.confidenceBps]).to.deep.equal([
        call.asset,
        BigInt(HOUR),
        BigInt(Direction.Down),
        8000n,
      ]);
      expect([stored.closesAt, stored.entryPrice]).to.deep.equal([t + BigInt(HOUR), START_PRICE]);
      const [up, down, voters] = await f.ledger.round(call.asset, HOUR, (t + BigInt(HOUR)) / BigInt(HOUR));
      expect([up, down, voters]).to.deep.equal([0n, ONE, 1n]);
    });

    it("may come exactly at the deadline", async () => {
      const f = await loadFixture(stakedFixture);
      const call = makeCall();
      const callId = await commitCall(f.ledger, f.agents[0]!, call);
      await time.setNextBlockTimestamp((callId & (2n ** 64n - 1n)) + BigInt(REVEAL_TIMEOUT));
      await expect(revealCall(f.ledger, f.agents[0]!, callId, call)).to.emit(f.ledger, "Revealed");
    });

    it("refuses an entry price of zero or above 128 bits, and an asset the oracle cannot price", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const call = makeCall();
      const callId = await commitCall(f.ledger, agent, call);
      await f.oracle.setPrice(call.asset, 0);
      await expect(revealCall(f.ledger, agent, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerEntryPriceOutOfRange")
        .withArgs(call.asset, 0);
      await f.oracle.setPrice(call.asset, 2n ** 128n);
      await expect(revealCall(f.ledger, agent, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerEntryPriceOutOfRange")
        .withArgs(call.asset, 2n ** 128n);
      const unpriced = makeCall({ asset: f.outsider.address }, 2);
      const unpricedId = await commitCall(f.ledger, agent, unpriced);
      await expect(revealCall(f.ledger, agent, unpricedId, unpriced))
        .to.be.revertedWithCustomError(f.oracle, "PriceOracleNoSource")
        .withArgs(f.outsider.address);
    });
  });

  describe("commit-reveal negative suite", () => {
    it("reveal in the commit block", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const call = makeCall();
      const commitment = commitmentOf(CHAIN_ID, await f.ledger.getAddress(), agent.address, call);
      const t = BigInt(await time.latest()) + 5n;
      await network.provider.send("evm_setAutomine", [false]);
      try {
        await time.setNextBlockTimestamp(t);
        await f.ledger.connect(agent).commit(commitment, { gasLimit: 200_000 });
        const callId = expectedCallId(agent.address, 0n, t);
        // Simulated in the pending block, i.e. the same block as the commit.
        await expect(
          f.ledger
            .connect(agent)
            .reveal.staticCall(
              callId,
              call.asset,
              call.window,
              call.direction,
              call.confidenceBps,
              call.salt,
              {
                blockTag: "pending",
              },
            ),
        )
          .to.be.revertedWithCustomError(f.ledger, "CallLedgerRevealTooEarly")
          .withArgs(callId, t);
        // And mined for real in that block, it fails.
        const revealTx = await f.ledger
          .connect(agent)
          .reveal(callId, call.asset, call.window, call.direction, call.confidenceBps, call.salt, {
            gasLimit: 300_000,
          });
        await network.provider.send("evm_mine");
        const mined = await ethers.provider.getTransactionReceipt(revealTx.hash);
        expect(mined?.status).to.equal(0);
        expect(mined?.blockNumber).to.equal((await ethers.provider.getBlock("latest"))!.number);
      } finally {
        await network.provider.send("evm_setAutomine", [true]);
      }
    });

    it("reveal after the timeout", async () => {
      const f = await loadFixture(stakedFixture);
      const call = makeCall();
      const callId = await commitCall(f.ledger, f.agents[0]!, call);
      const deadline = (callId & (2n ** 64n - 1n)) + BigInt(REVEAL_TIMEOUT);
      await time.setNextBlockTimestamp(deadline + 1n);
      await expect(revealCall(f.ledger, f.agents[0]!, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerRevealTimedOut")
        .withArgs(callId, deadline, deadline + 1n);
    });

    it("reveal twice", async () => {
      const f = await loadFixture(stakedFixture);
      const call = makeCall();
      const { callId } = await openCall(f, f.agents[0]!, call);
      await expect(revealCall(f.ledger, f.agents[0]!, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotCommitted")
        .withArgs(callId, Status.Revealed);
    });

    it("reveal with a wrong salt (or any other changed value)", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const call = makeCall();
      const callId = await commitCall(f.ledger, agent, call);
      const committed = commitmentOf(CHAIN_ID, await f.ledger.getAddress(), agent.address, call);
      for (const changed of [
        { ...call, salt: ethers.id("other salt") },
        { ...call, direction: Direction.Down },
        { ...call, confidenceBps: 7001 },
        { ...call, window: DAY },
        { ...call, asset: ASSETS[1]! },
      ]) {
        await expect(revealCall(f.ledger, agent, callId, changed))
          .to.be.revertedWithCustomError(f.ledger, "CallLedgerCommitmentMismatch")
          .withArgs(
            callId,
            committed,
            commitmentOf(CHAIN_ID, await f.ledger.getAddress(), agent.address, changed),
          );
      }
    });

    it("reveal by another address", async () => {
      const f = await loadFixture(stakedFixture);
      const [agent, thief] = [f.agents[0]!, f.agents[1]!];
      const call = makeCall();
      const callId = await commitCall(f.ledger, agent, call);
      await expect(revealCall(f.ledger, thief, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotCallAgent")
        .withArgs(callId, agent.address, thief.address);
    });

    it("reveal of a commitment made for another chain id", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const call = makeCall();
      const ledgerAddress = await f.ledger.getAddress();
      const foreign = commitmentOf(4663n, ledgerAddress, agent.address, call);
      const callId = callIdFrom(f.ledger, await (await f.ledger.connect(agent).commit(foreign)).wait());
      await expect(revealCall(f.ledger, agent, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerCommitmentMismatch")
        .withArgs(callId, foreign, commitmentOf(CHAIN_ID, ledgerAddress, agent.address, call));
    });

    it("reveal of a commitment replayed from another ledger", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const call = makeCall();
      const other = await ethers.deployContract("CallLedger", [
        await f.usdg.getAddress(),
        await f.oracle.getAddress(),
        MIN_STAKE,
        f.admin.address,
      ]);
      await other.connect(f.admin).setWindow(HOUR, true);
      await f.usdg.connect(agent).approve(await other.getAddress(), ethers.MaxUint256);
      await other.connect(agent).deposit(MIN_STAKE);
      // The commitment that binds the call to the first ledger, replayed on the second.
      const forFirst = commitmentOf(CHAIN_ID, await f.ledger.getAddress(), agent.address, call);
      const callId = callIdFrom(other, await (await other.connect(agent).commit(forFirst)).wait());
      await expect(revealCall(other, agent, callId, call))
        .to.be.revertedWithCustomError(other, "CallLedgerCommitmentMismatch")
        .withArgs(callId, forFirst, commitmentOf(CHAIN_ID, await other.getAddress(), agent.address, call));
    });

    it("unknown call id, for reveal, settle and expire", async () => {
      const f = await loadFixture(stakedFixture);
      const call = makeCall();
      const realId = await commitCall(f.ledger, f.agents[0]!, call);
      for (const unknown of [
        0n,
        12345n,
        realId + 1n,
        expectedCallId(f.agents[1]!.address, 0n, realId & 0xffffn),
      ]) {
        await expect(revealCall(f.ledger, f.agents[0]!, unknown, call))
          .to.be.revertedWithCustomError(f.ledger, "CallLedgerUnknownCall")
          .withArgs(unknown);
        await expect(f.ledger.settle(unknown))
          .to.be.revertedWithCustomError(f.ledger, "CallLedgerUnknownCall")
          .withArgs(unknown);
        await expect(f.ledger.expire(unknown))
          .to.be.revertedWithCustomError(f.ledger, "CallLedgerUnknownCall")
          .withArgs(unknown);
        const view = await f.ledger.getCall(unknown);
        expect([view.agent, view.status]).to.deep.equal([ethers.ZeroAddress, BigInt(Status.None)]);
      }
    });

    it("window not allowed (including one disallowed after the commit)", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const never = makeCall({ window: 900 });
      const neverId = await commitCall(f.ledger, agent, never);
      await expect(revealCall(f.ledger, agent, neverId, never))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerWindowNotAllowed")
        .withArgs(900);
      const daily = makeCall({ window: DAY }, 2);
      const dailyId = await commitCall(f.ledger, agent, daily);
      await f.ledger.connect(f.admin).setWindow(DAY, false);
      await expect(revealCall(f.ledger, agent, dailyId, daily))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerWindowNotAllowed")
        .withArgs(DAY);
    });

    it("bad confidence, below 5000 or above 10000 bps, and direction None", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      for (const confidenceBps of [0, 4999, 10_001, 65_535]) {
        const call = makeCall({ confidenceBps });
        const callId = await commitCall(f.ledger, agent, call);
        await expect(revealCall(f.ledger, agent, callId, call))
          .to.be.revertedWithCustomError(f.ledger, "CallLedgerBadConfidence")
          .withArgs(confidenceBps);
      }
      for (const confidenceBps of [5000, 10_000]) {
        const call = makeCall({ confidenceBps }, confidenceBps);
        const callId = await commitCall(f.ledger, agent, call);
        await expect(revealCall(f.ledger, agent, callId, call)).to.emit(f.ledger, "Revealed");
      }
      const none = makeCall({ direction: Direction.None });
      const noneId = await commitCall(f.ledger, agent, none);
      await expect(revealCall(f.ledger, agent, noneId, none))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerBadDirection")
        .withArgs(Direction.None);
    });

    it("settle before closesAt", async () => {
      const f = await loadFixture(stakedFixture);
      const { callId, closesAt } = await openCall(f, f.agents[0]!, makeCall());
      await time.setNextBlockTimestamp(closesAt - 1n);
      await expect(f.ledger.settle(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotClosed")
        .withArgs(callId, closesAt, closesAt - 1n);
    });

    it("settle twice", async () => {
      const f = await loadFixture(stakedFixture);
      const { callId } = await settleAt(f, f.agents[0]!, makeCall(), START_PRICE + 1n);
      await expect(f.ledger.settle(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotRevealed")
        .withArgs(callId, Status.Settled);
    });

    it("settle a call that was never revealed, or has expired", async () => {
      const f = await loadFixture(stakedFixture);
      const callId = await commitCall(f.ledger, f.agents[0]!, makeCall());
      await expect(f.ledger.settle(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotRevealed")
        .withArgs(callId, Status.Committed);
      await time.increase(REVEAL_TIMEOUT + 1);
      await f.ledger.expire(callId);
      await expect(f.ledger.settle(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotRevealed")
        .withArgs(callId, Status.Expired);
    });

    it("expire a revealed call", async () => {
      const f = await loadFixture(stakedFixture);
      const { callId } = await openCall(f, f.agents[0]!, makeCall());
      await time.increase(REVEAL_TIMEOUT + 1);
      await expect(f.ledger.expire(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotCommitted")
        .withArgs(callId, Status.Revealed);
    });

    it("expire before the timeout, expire twice, reveal an expired call", async () => {
      const f = await loadFixture(stakedFixture);
      const call = makeCall();
      const callId = await commitCall(f.ledger, f.agents[0]!, call);
      const deadline = (callId & (2n ** 64n - 1n)) + BigInt(REVEAL_TIMEOUT);
      await time.setNextBlockTimestamp(deadline);
      await expect(f.ledger.expire(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerRevealNotTimedOut")
        .withArgs(callId, deadline, deadline);
      await expect(f.ledger.expire(callId)).to.emit(f.ledger, "Expired");
      await expect(f.ledger.expire(callId))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotCommitted")
        .withArgs(callId, Status.Expired);
      await expect(revealCall(f.ledger, f.agents[0]!, callId, call))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerNotCommitted")
        .withArgs(callId, Status.Expired);
    });
  });

  describe("settle", () => {
    const cases: Array<[string, number, bigint, number]> = [
      ["an up call the price rose after is a hit", Direction.Up, START_PRICE + 1n, Outcome.Hit],
      ["an up call the price fell after is a miss", Direction.Up, START_PRICE - 1n, Outcome.Miss],
      ["a down call the price fell after is a hit", Direction.Down, START_PRICE / 2n, Outcome.Hit],
      ["a down call the price rose after is a miss", Direction.Down, START_PRICE * 2n, Outcome.Miss],
      ["a call the price did not move after is void", Direction.Up, START_PRICE, Outcome.Void],
    ];
    for (const [name, direction, exit, outcome] of cases) {
      it(name, async () => {
        const f = await loadFixture(stakedFixture);
        const agent = f.agents[0]!;
        const opened = await openCall(f, agent, makeCall({ direction }));
        await f.oracle.setPriceAt(ASSETS[0]!, opened.closesAt, exit);
        await time.increaseTo(opened.closesAt);
        await expect(f.ledger.settle(opened.callId))
          .to.emit(f.ledger, "Settled")
          .withArgs(opened.callId, agent.address, outcome, exit);
        const stored = await f.ledger.getCall(opened.callId);
        expect([stored.status, stored.outcome]).to.deep.equal([BigInt(Status.Settled), BigInt(outcome)]);
        const record = await f.ledger.record(agent.address);
        expect([record.hits, record.misses, record.voids, record.openCalls]).to.deep.equal([
          outcome === Outcome.Hit ? 1n : 0n,
          outcome === Outcome.Miss ? 1n : 0n,
          outcome === Outcome.Void ? 1n : 0n,
          0n,
        ]);
      });
    }

    for (const [name, failure] of [
      ["no source", Failure.NoSource],
      ["window not covered", Failure.WindowNotCovered],
      ["stale pushed price", Failure.StalePrice],
    ] as const) {
      it(`voids the call when no price covers closesAt (${name})`, async () => {
        const f = await loadFixture(stakedFixture);
        const { callId } = await openCall(f, f.agents[0]!, makeCall());
        await f.oracle.setFailure(ASSETS[0]!, failure);
        await time.increase(HOUR);
        await expect(f.ledger.settle(callId))
          .to.emit(f.ledger, "Settled")
          .withArgs(callId, f.agents[0]!.address, Outcome.Void, 0);
        expect((await f.ledger.record(f.agents[0]!.address)).voids).to.equal(1);
      });
    }

    it("voids a call whose asset lost its whole history (a zero price)", async () => {
      const f = await loadFixture(stakedFixture);
      const opened = await openCall(f, f.agents[0]!, makeCall());
      await f.oracle.setPriceAt(ASSETS[0]!, opened.closesAt, 0);
      await f.oracle.setPrice(ASSETS[0]!, 0);
      await time.increaseTo(opened.closesAt);
      await expect(f.ledger.settle(opened.callId))
        .to.emit(f.ledger, "Settled")
        .withArgs(opened.callId, f.agents[0]!.address, Outcome.Void, 0);
    });

    it("reverts, rather than voids, on any other oracle failure (no void by gas starvation)", async () => {
      const f = await loadFixture(stakedFixture);
      const { callId } = await openCall(f, f.agents[0]!, makeCall());
      await time.increase(HOUR);
      await f.oracle.setFailure(ASSETS[0]!, Failure.OtherError);
      await expect(f.ledger.settle(callId))
        .to.be.revertedWithCustomError(f.oracle, "MockPriceOracleBroken")
        .withArgs(ASSETS[0]!);
      await f.oracle.setFailure(ASSETS[0]!, Failure.EmptyRevert);
      await expect(f.ledger.settle(callId)).to.be.revertedWithoutReason();
      // The PriceOracle's own name for a pool that failed without a reason (e.g. out of gas).
      await f.oracle.setFailure(ASSETS[0]!, Failure.ObserveFailed);
      await expect(f.ledger.settle(callId))
        .to.be.revertedWithCustomError(f.oracle, "PriceOracleObserveFailed")
        .withArgs(ASSETS[0]!);
      expect((await f.ledger.getCall(callId)).status).to.equal(Status.Revealed);
    });

    it("prices the exit at closesAt however late it is settled", async () => {
      const f = await loadFixture(stakedFixture);
      const opened = await openCall(f, f.agents[0]!, makeCall({ direction: Direction.Up }));
      await f.oracle.setPriceAt(ASSETS[0]!, opened.closesAt, START_PRICE + 5n);
      await time.increase(10 * DAY);
      // The price now is far below the entry; only the price at closesAt counts.
      await f.oracle.setPrice(ASSETS[0]!, 1n);
      await expect(f.ledger.settle(opened.callId))
        .to.emit(f.ledger, "Settled")
        .withArgs(opened.callId, f.agents[0]!.address, Outcome.Hit, START_PRICE + 5n);
    });

    it("can be called by anyone", async () => {
      const f = await loadFixture(stakedFixture);
      const opened = await openCall(f, f.agents[0]!, makeCall());
      await time.increaseTo(opened.closesAt);
      await expect(f.ledger.connect(f.outsider).settle(opened.callId)).to.emit(f.ledger, "Settled");
    });
  });

  describe("record and score", () => {
    it("counts streaks: hits extend, voids keep, misses and expiries reset", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      const steps: Array<[bigint, number, number]> = [
        [START_PRICE + 1n, 1, 1], // hit
        [START_PRICE + 1n, 2, 2], // hit
        [START_PRICE, 2, 2], // void
        [START_PRICE + 1n, 3, 3], // hit
        [START_PRICE - 1n, 0, 3], // miss
        [START_PRICE + 1n, 1, 3], // hit
      ];
      for (const [i, [exit, streak, best]] of steps.entries()) {
        await settleAt(f, agent, makeCall({}, 100 + i), exit);
        const { streak: run, bestStreak } = await f.ledger.record(agent.address);
        expect([run, bestStreak]).to.deep.equal([BigInt(streak), BigInt(best)]);
      }
      const callId = await commitCall(f.ledger, agent, makeCall({}, 999));
      await time.increase(REVEAL_TIMEOUT + 1);
      await expect(f.ledger.connect(f.outsider).expire(callId))
        .to.emit(f.ledger, "Expired")
        .withArgs(callId, agent.address);
      const record = await f.ledger.record(agent.address);
      expect(record.hits).to.equal(4);
      expect(record.misses).to.equal(2);
      expect(record.voids).to.equal(1);
      expect(record.streak).to.equal(0);
      expect(record.bestStreak).to.equal(3);
      expect(record.commits).to.equal(7);
      expect(record.openCalls).to.equal(0);
      expect((await f.ledger.getCall(callId)).outcome).to.equal(Outcome.Miss);
      // 4 hits, 2 misses, 10 × minStake: 16 × 10 / 7.
      expect(await f.ledger.score(agent.address)).to.equal((160n * ONE) / 7n);
    });

    it("computeScore on the ledger uses its minStake and the seed's numbers", async () => {
      const { ledger } = await loadFixture(ledgerFixture);
      expect(await ledger.computeScore(1, 0, MIN_STAKE)).to.equal(ONE / 2n);
      expect(await ledger.computeScore(2, 0, MIN_STAKE)).to.equal((4n * ONE) / 3n);
      expect(await ledger.computeScore(10, 0, MIN_STAKE)).to.equal((100n * ONE) / 11n);
      expect(await ledger.computeScore(14, 6, MIN_STAKE)).to.equal((196n * ONE) / 21n);
      expect(await ledger.computeScore(14, 6, 2n * MIN_STAKE)).to.equal((392n * ONE) / 21n);
    });
  });

  describe("consensus", () => {
    /** Agents 0..n-1 reveal `directions[i]` into the same round; returns the round's bucket. */
    async function voteRound(f: LedgerFixture, directions: number[], asset = ASSETS[0]!) {
      const ids: bigint[] = [];
      const calls = directions.map((direction, i) => makeCall({ direction, asset }, 1000 + i));
      // Commit a minute into an hour, not at the wall clock's second: commits straddling an hour
      // boundary would push the reveals past the first commit's hour-long reveal timeout.
      const hour = BigInt(HOUR);
      await time.setNextBlockTimestamp((BigInt(await time.latest()) / hour + 1n) * hour + 60n);
      for (const [i, call] of calls.entries()) ids.push(await commitCall(f.ledger, f.agents[i]!, call));
      // All reveals land in one hour-long bucket: start right after a bucket boundary.
      const now = BigInt(await time.latest());
      const start = (now / BigInt(HOUR) + 1n) * BigInt(HOUR);
      await time.setNextBlockTimestamp(start);
      const txs = [];
      for (const [i, call] of calls.entries())
        txs.push(await revealCall(f.ledger, f.agents[i]!, ids[i]!, call));
      return { bucket: (start + BigInt(HOUR)) / BigInt(HOUR), txs, ids };
    }

    it("is announced when the third vote makes the quorum and the lead clears 66.67 %", async () => {
      const f = await loadFixture(stakedFixture);
      const { bucket, txs } = await voteRound(f, [Direction.Up, Direction.Up, Direction.Up]);
      await expect(txs[1]!).not.to.emit(f.ledger, "Consensus");
      await expect(txs[2]!)
        .to.emit(f.ledger, "Consensus")
        .withArgs(ASSETS[0]!, HOUR, bucket, Direction.Up, 10_000, 3, 3n * ONE, 0);
      expect(await f.ledger.consensusCount()).to.equal(1);
      const entry = await f.ledger.consensusAt(0);
      expect([
        entry.asset,
        entry.window,
        entry.bucket,
        entry.direction,
        entry.strengthBps,
        entry.voters,
      ]).to.deep.equal([ASSETS[0]!, BigInt(HOUR), bucket, BigInt(Direction.Up), 10_000n, 3n]);
      expect([entry.upWeight, entry.downWeight]).to.deep.equal([3n * ONE, 0n]);
      await expect(f.ledger.consensusAt(1))
        .to.be.revertedWithCustomError(f.ledger, "CallLedgerConsensusIndexOutOfRange")
        .withArgs(1, 1);
    });

    it("is not reached at 2 up / 1 down with equal weights (66.66 % < 66.67 %)", async () => {
      const f = await loadFixture(stakedFixture);
      const { bucket, txs } = await voteRound(f, [Direction.Up, Direction.Up, Direction.Down]);
      await expect(txs[2]!).not.to.emit(f.ledger, "Consensus");
      const [up, down, voters, last] = await f.ledger.round(ASSETS[0]!, HOUR, bucket);
      expect([up, down, voters, last]).to.deep.equal([2n * ONE, ONE, 3n, BigInt(Direction.None)]);
      // The view answers for the round a reveal now would join, under the current parameters:
      // at 6666 bps the same tallies hold (20000 >= 6666 × 3), so the comparison is exact.
      expect(await f.ledger.consensus(ASSETS[0]!, HOUR)).to.deep.equal([bucket, 2n * ONE, ONE, 3n, 0n]);
      await f.ledger.connect(f.admin).setThresholdBps(6666);
      expect((await f.ledger.consensus(ASSETS[0]!, HOUR)).direction).to.equal(Direction.Up);
    });

    it("announces every later change of the leading side, whatever its strength; a tie announces nothing", async () => {
      const f = await loadFixture(stakedFixture);
      for (const agent of f.agents.slice(4, 8)) await f.ledger.connect(agent).deposit(1000n * USDG);
      const U = Direction.Up;
      const D = Direction.Down;
      // Equal votes (no agent has a hit): 3:0 announces Up; 3:1 and 3:2 still lead Up; 3:3 is a
      // tie (no leader, nothing); 3:4 puts Down ahead at 57.14 %, far below the 66.67 % threshold,
      // and is announced as the seed words it; 3:5 leads Down again, which is no news.
      const { bucket, txs } = await voteRound(f, [U, U, U, D, D, D, D, D]);
      await expect(txs[2]!)
        .to.emit(f.ledger, "Consensus")
        .withArgs(ASSETS[0]!, HOUR, bucket, U, 10_000, 3, 3n * ONE, 0);
      for (const i of [3, 4, 5, 7]) await expect(txs[i]!).not.to.emit(f.ledger, "Consensus");
      await expect(txs[6]!)
        .to.emit(f.ledger, "Consensus")
        .withArgs(ASSETS[0]!, HOUR, bucket, D, 5714, 7, 3n * ONE, 4n * ONE);
      // Second Up calls of agents 0, 1 and 2 in the same round: 4:5 trails, 5:5 ties (nothing),
      // 6:5 takes the lead back for Up at 54.54 %.
      const extras = [0, 1, 2].map((i) => makeCall({ direction: U }, 5000 + i));
      const ids = [];
      for (const [i, call] of extras.entries()) ids.push(await commitCall(f.ledger, f.agents[i]!, call));
      for (const i of [0, 1]) {
        await expect(revealCall(f.ledger, f.agents[i]!, ids[i]!, extras[i]!)).not.to.emit(
          f.ledger,
          "Consensus",
        );
      }
      await expect(revealCall(f.ledger, f.agents[2]!, ids[2]!, extras[2]!))
        .to.emit(f.ledger, "Consensus")
        .withArgs(ASSETS[0]!, HOUR, bucket, U, 5454, 11, 6n * ONE, 5n * ONE);
      expect(await f.ledger.consensusCount()).to.equal(3);
      const log = [];
      for (let i = 0; i < 3; i++) {
        const e = await f.ledger.consensusAt(i);
        log.push([e.direction, e.strengthBps, e.voters, e.upWeight, e.downWeight]);
      }
      expect(log).to.deep.equal([
        [BigInt(U), 10_000n, 3n, 3n * ONE, 0n],
        [BigInt(D), 5714n, 7n, 3n * ONE, 4n * ONE],
        [BigInt(U), 5454n, 11n, 6n * ONE, 5n * ONE],
      ]);
      const [, , , last] = await f.ledger.round(ASSETS[0]!, HOUR, bucket);
      expect(last).to.equal(U);
    });

    it("announces no flip before the round's first announcement", async () => {
      const f = await loadFixture(stakedFixture);
      // 1:0, 1:1, 1:2 (Down leads, but no announcement yet: quorum met, 66.66 % < 66.67 %).
      const { bucket, txs } = await voteRound(f, [Direction.Up, Direction.Down, Direction.Down]);
      for (const tx of txs) await expect(tx).not.to.emit(f.ledger, "Consensus");
      const [, , , last] = await f.ledger.round(ASSETS[0]!, HOUR, bucket);
      expect(last).to.equal(Direction.None);
    });

    it("weights a proven agent's vote by 1 + score", async () => {
      const f = await loadFixture(stakedFixture);
      const agent = f.agents[0]!;
      await settleAt(f, agent, makeCall({}, 1), START_PRICE + 1n); // one hit: score 10 × 0.5 = 5
      expect(await f.ledger.score(agent.address)).to.equal(5n * ONE);
      const call = makeCall({ asset: ASSETS[1]! }, 2);
      const callId = await commitCall(f.ledger, agent, call);
      await expect(revealCall(f.ledger, agent, callId, call))
        .to.emit(f.ledger, "Revealed")
        .withArgs(
          callId,
          agent.address,
          ASSETS[1]!,
          HOUR,
          Direction.Up,
          7000,
          call.salt,
          START_PRICE,
          anyUint,
          6n * ONE,
        );
    });

    it("reports the round a reveal now would land in, and who holds consensus there", async () => {
      const f = await loadFixture(stakedFixture);
      const { bucket } = await voteRound(f, [Direction.Down, Direction.Down, Direction.Down]);
      const [b, up, down, voters, direction] = await f.ledger.consensus(ASSETS[0]!, HOUR);
      expect([b, up, down, voters, direction]).to.deep.equal([
        bucket,
        0n,
        3n * ONE,
        3n,
        BigInt(Direction.Down),
      ]);
      await f.ledger.connect(f.admin).setConsensusQuorum(4);
      expect((await f.ledger.consensus(ASSETS[0]!, HOUR)).direction).to.equal(Direction.None);
      const empty = await f.ledger.consensus(ASSETS[1]!, DAY);
      expect([empty.upWeight, empty.downWeight, empty.voters]).to.deep.equal([0n, 0n, 0n]);
      await expect(f.ledger.consensus(ASSETS[0]!, 0)).to.be.revertedWithCustomError(
        f.ledger,
        "CallLedgerZeroWindow",
      );
    });

    it("logs the exact tallies when they do not fit 128 bits a side: two more slots, no revert", async () => {
      const { ledger, admin, agents, votes } = await loadFixture(hugeVotesFixture);
      const [a, b] = [agents[0]!, agents[1]!];
      const [vA, vB] = [votes[0]!, votes[1]!];
      const U = Direction.Up;
      const D = Direction.Down;
      const entries = async (from: number, to: number) => {
        const all = [];
        for (let i = from; i < to; i++) {
          const e = await ledger.consensusAt(i);
          all.push([
            e.asset,
            e.window,
            e.bucket,
            e.direction,
            e.strengthBps,
            e.voters,
            e.upWeight,
            e.downWeight,
          ]);
        }
        return all;
      };
      // Entries 0 and 1 are the fixture's first votes (quorum 1, one round each): Up, 1e18.
      const first = (await entries(0, 2)).map(([asset, window, , ...rest]) => [asset, window, ...rest]);
      expect(first).to.deep.equal(
        [0, 1].map(() => [ASSETS[0]!, BigInt(HOUR), BigInt(U), 10_000n, 1n, ONE, 0n]),
      );
      // The largest vote that fits 128 bits stays in two slots (entry 2); one over it spills
      // (entry 3), and so does the flip with both sides over 128 bits (entry 4).
      const narrow = await revealIntoOneRound(ledger, [[a, D]], ASSETS[1]!, 10);
      await expect(narrow.txs[0]!)
        .to.emit(ledger, "Consensus")
        .withArgs(ASSETS[1]!, HOUR, narrow.bucket, D, 10_000, 1, 0, vA);
      expect(vA).to.equal(MAX_UINT128 - ((MAX_UINT128 - ONE) % (ONE / 2n)));
      const wide = await revealIntoOneRound(
        ledger,
        [
          [b, U],
          [a, D],
          [a, D],
          [a, D],
        ],
        ASSETS[0]!,
        20,
      );
      await expect(wide.txs[0]!)
        .to.emit(ledger, "Consensus")
        .withArgs(ASSETS[0]!, HOUR, wide.bucket, U, 10_000, 1, vB, 0);
      // vB > vA, so one vA trails; 2 × vA takes the lead (just short of 66.67 %): a flip, announced
      // whatever its strength; 3 × vA (75 %) still leads Down, which is no news.
      expect(vB > vA && 2n * vA > vB).to.equal(true);
      await expect(wide.txs[1]!).not.to.emit(ledger, "Consensus");
      const strength = (2n * vA * 10_000n) / (vB + 2n * vA);
      expect(strength).to.equal(6666n);
      await expect(wide.txs[2]!)
        .to.emit(ledger, "Consensus")
        .withArgs(ASSETS[0]!, HOUR, wide.bucket, D, strength, 3, vB, 2n * vA);
      await expect(wide.txs[3]!).not.to.emit(ledger, "Consensus");
      const logged = await entries(2, 5);
      expect(logged).to.deep.equal([
        [ASSETS[1]!, BigInt(HOUR), narrow.bucket, BigInt(D), 10_000n, 1n, 0n, vA],
        [ASSETS[0]!, BigInt(HOUR), wide.bucket, BigInt(U), 10_000n, 1n, vB, 0n],
        [ASSETS[0]!, BigInt(HOUR), wide.bucket, BigInt(D), strength, 3n, vB, 2n * vA],
      ]);
      // The log derives direction and strength from the tallies alone: later parameters do not
      // change an entry.
      await ledger.connect(admin).setThresholdBps(10_000);
      await ledger.connect(admin).setConsensusQuorum(100);
      expect(await entries(2, 5)).to.deep.equal(logged);
      expect(await ledger.consensusCount()).to.equal(5);
    });

    it("keeps rounds of other assets, windows and buckets apart", async () => {
      const f = await loadFixture(stakedFixture);
      const { bucket } = await voteRound(f, [Direction.Up, Direction.Up]);
      const [, , votersOther] = await f.ledger.round(ASSETS[1]!, HOUR, bucket);
      const [, , votersNext] = await f.ledger.round(ASSETS[0]!, HOUR, bucket + 1n);
      const [, , votersDay] = await f.ledger.round(ASSETS[0]!, DAY, bucket);
      const [, , votersSame] = await f.ledger.round(ASSETS[0]!, HOUR, bucket);
      expect([votersSame, votersOther, votersNext, votersDay]).to.deep.equal([2n, 0n, 0n, 0n]);
    });
  });
});
