import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  ASSETS,
  COVERAGE,
  Direction,
  GAS_TARGET as TARGET,
  HOUR,
  REVEAL_TIMEOUT,
  START_PRICE,
  USDG,
  commitCall,
  hugeVotesFixture,
  ledgerFixture,
  makeCall,
  measureGas as snapshotGas,
  revealCall,
  revealIntoOneRound,
  withinTarget,
} from "./shared/callLedger";

// Figures beside their storage floors: docs/call-ledger.md.
describe("CallLedger gas", () => {
  async function stakedFixture() {
    const f = await ledgerFixture();
    for (const agent of f.agents.slice(0, 4)) await f.ledger.connect(agent).deposit(1000n * USDG);
    return f;
  }

  it("deposit: first, and top-up", async () => {
    const { ledger, agents } = await loadFixture(ledgerFixture);
    const first = await snapshotGas(
      "CallLedger.deposit (first)",
      ledger.connect(agents[0]!).deposit(500n * USDG),
    );
    const topUp = await snapshotGas(
      "CallLedger.deposit (top-up)",
      ledger.connect(agents[0]!).deposit(500n * USDG),
    );
    if (!COVERAGE) expect(topUp).to.be.lessThan(first);
  });

  it("withdraw", async () => {
    const { ledger, agents } = await loadFixture(stakedFixture);
    const gas = await snapshotGas("CallLedger.withdraw", ledger.connect(agents[0]!).withdraw(100n * USDG));
    withinTarget(gas, 60_000);
  });

  it("commit", async () => {
    const f = await loadFixture(stakedFixture);
    const commitment = await f.ledger.computeCommitment(
      f.agents[0]!.address,
      f.agents[1]!.address,
      HOUR,
      1,
      7000,
      "0x" + "11".repeat(32),
    );
    // The first commit of an agent, and a later one: both write exactly one new slot.
    const first = await snapshotGas("CallLedger.commit", f.ledger.connect(f.agents[0]!).commit(commitment));
    await f.ledger.connect(f.agents[0]!).commit(commitment);
    withinTarget(first, TARGET.commit);
  });

  /** Agents 0..n-1 commit `directions[i]`, then reveal them in one hour-long bucket, in order. */
  async function roundOf(directions: number[]) {
    const f = await loadFixture(stakedFixture);
    for (const agent of f.agents.slice(4, 8)) await f.ledger.connect(agent).deposit(1000n * USDG);
    const calls = directions.map((direction, i) => makeCall({ direction }, 10 + i));
    // Commit a minute before an hour starts, so the reveals at its start are inside the reveal
    // timeout whatever the wall-clock time the chain started from.
    const start = ((BigInt(await time.latest()) + 120n) / BigInt(HOUR) + 1n) * BigInt(HOUR);
    await time.setNextBlockTimestamp(start - 60n);
    const ids: bigint[] = [];
    for (const [i, call] of calls.entries()) ids.push(await commitCall(f.ledger, f.agents[i]!, call));
    await time.setNextBlockTimestamp(start);
    const reveal = (i: number) => revealCall(f.ledger, f.agents[i]!, ids[i]!, calls[i]!);
    return { f, reveal };
  }

  it("reveal: first vote in a round (either side), and a later vote", async () => {
    const { f, reveal } = await roundOf([Direction.Up, Direction.Down, Direction.Up]);
    const first = await snapshotGas("CallLedger.reveal (first vote in round)", reveal(0));
    const firstDown = await snapshotGas("CallLedger.reveal (first vote on the down side)", reveal(1));
    const later = await snapshotGas("CallLedger.reveal (later vote)", reveal(2));
    expect(await f.ledger.consensusCount()).to.equal(0);
    for (const gas of [first, firstDown, later]) withinTarget(gas, TARGET.reveal);
    if (!COVERAGE) expect(later).to.be.lessThan(first);
  });

  it("reveal: the vote that reaches consensus (mixed round) or flips it", async () => {
    // D, U, U, U: the fourth vote makes 3:1 (75 %). Then D, D, D, D: 3:5, and the next D 3:6
    // is still short; 3:7 flips the round to Down.
    const U = Direction.Up;
    const D = Direction.Down;
    const { f, reveal } = await roundOf([D, U, U, U, D, D, D, D]);
    for (const i of [0, 1, 2]) await reveal(i);
    const reaching = await snapshotGas("CallLedger.reveal (reaches consensus)", reveal(3));
    expect(await f.ledger.consensusCount()).to.equal(1);
    withinTarget(reaching, TARGET.reveal);
  });

  it("reveal: the vote that reaches consensus in a unanimous round (the down tally slot stays empty)", async () => {
    const { f, reveal } = await roundOf([Direction.Up, Direction.Up, Direction.Up]);
    await reveal(0);
    await reveal(1);
    const gas = await snapshotGas("CallLedger.reveal (reaches consensus, unanimous)", reveal(2));
    expect(await f.ledger.consensusCount()).to.equal(1);
    withinTarget(gas, TARGET.reveal);
  });

  it("reveal: an announcement whose tallies do not fit 128 bits spills them to slots of their own", async () => {
    // Quorum 1: each vote is the first of its round and announces. Agent 0's vote is the largest
    // that fits 128 bits, agent 1's one unit of stake over it (see `hugeVotesFixture`).
    const { ledger, agents } = await loadFixture(hugeVotesFixture);
    const fits = await revealIntoOneRound(ledger, [[agents[0]!, Direction.Up]], ASSETS[1]!, 10);
    const spills = await revealIntoOneRound(ledger, [[agents[1]!, Direction.Up]], ASSETS[1]!, 20);
    const narrow = await snapshotGas(
      "CallLedger.reveal (first vote announces, tallies fit 128 bits)",
      Promise.resolve(fits.txs[0]!),
    );
    const wide = await snapshotGas(
      "CallLedger.reveal (first vote announces, tallies over 128 bits)",
      Promise.resolve(spills.txs[0]!),
    );
    expect(await ledger.consensusCount()).to.equal(4);
    // Unanimous, so the spill holds one non-zero tally: instead of the packed weights (a fresh
    // slot, 22,100) it writes the up tally (22,100) and zeros over zeros for the packed slot and
    // the down tally (2,200 each). A two-sided spill costs a further fresh slot.
    if (!COVERAGE) expect(wide - narrow).to.be.within(4_400, 5_000);
  });

  it("settle: a hit, and a miss", async () => {
    const f = await loadFixture(stakedFixture);
    const hit = makeCall({ direction: Direction.Up }, 1);
    const miss = makeCall({ direction: Direction.Down }, 2);
    const hitId = await commitCall(f.ledger, f.agents[0]!, hit);
    const missId = await commitCall(f.ledger, f.agents[1]!, miss);
    await revealCall(f.ledger, f.agents[0]!, hitId, hit);
    await revealCall(f.ledger, f.agents[1]!, missId, miss);
    await f.oracle.setPrice(hit.asset, START_PRICE + 1n);
    await time.increase(HOUR + 1);
    const hitGas = await snapshotGas("CallLedger.settle (hit)", f.ledger.settle(hitId));
    const missGas = await snapshotGas("CallLedger.settle (miss)", f.ledger.settle(missId));
    withinTarget(hitGas, TARGET.settle);
    withinTarget(missGas, TARGET.settle);
  });

  it("expire", async () => {
    const f = await loadFixture(stakedFixture);
    const callId = await commitCall(f.ledger, f.agents[0]!, makeCall());
    await time.increase(REVEAL_TIMEOUT + 1);
    const gas = await snapshotGas("CallLedger.expire", f.ledger.expire(callId));
    withinTarget(gas, TARGET.expire);
  });
});
