import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import fc from "fast-check";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { ContractTransactionReceipt, ContractTransactionResponse } from "ethers";
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
  commitmentOf,
  expectedCallId,
  ledgerFixture,
  scoreModel,
  type CallParams,
  type LedgerFixture,
} from "./shared/callLedger";
import type { CallLedger, CallLedgerProbe, MockPriceOracle } from "../typechain-types";

// A model-based test: random histories of deposits, withdrawals, commits, reveals, settles,
// expiries, price moves, oracle outages and time, run against the ledger and against a
// TypeScript model of it. Every step checks the outcome (or the exact custom error) against the
// model, then the invariants of CallLedger.sol's NatSpec on chain:
//   I1 the ledger's USDG balance equals the sum of stakes;
//   I2 commits = open + hits + misses + voids, and hits + misses + voids = the agent's settled
//      plus expired calls, counted from the calls themselves;
//   I3 streak <= bestStreak;
//   I4 each call resolves at most once (every second settle/expire must revert);
//   I5 an agent with open calls keeps minStake;
//   I6 each round's stored tallies, vote count and last announced side equal the model's (and
//      the tallies are at least voters × 1e18); every Consensus event and consensus-log entry
//      equals the model's, flips included.
//
// Run count: each run replays a history of transactions plus a probe call per step, so the global
// FC_RUNS (1,000 in `npm test`, 10,000 in `npm run test:deep`) is divided by 10 here: 100 runs by
// default, 1,000 deep. A history has up to 40 commands in `npm test` (a whole commit → reveal →
// settle/expire life takes 3–5, so five agents still interleave several) and up to 80 deep: at 80
// this one test took 181 s of the 20-minute suite. Each run starts from a loadFixture snapshot.
const MODEL_RUNS = Math.max(10, Math.floor(fc.readConfigureGlobal().numRuns! / 10));
const MODEL_COMMANDS = MODEL_RUNS >= 1_000 ? 80 : 40;
const AGENT_COUNT = 5;
const TIME_STEPS = [1n, 30n, 240n, 601n, 1800n, BigInt(REVEAL_TIMEOUT) + 1n];
const INITIAL_STAKE = 1000n * USDG;
const DEPOSITS = [50n * USDG, MIN_STAKE, 250n * USDG, 1000n * USDG];

type CallStatus = "committed" | "revealed" | "settled" | "expired";

interface ModelCall {
  id: bigint;
  agent: number;
  params: CallParams;
  committedAt: bigint;
  status: CallStatus;
  resolutions: number;
  entry?: bigint;
  closesAt?: bigint;
}

interface ModelAgent {
  stake: bigint;
  commits: bigint;
  open: bigint;
  hits: bigint;
  misses: bigint;
  voids: bigint;
  streak: bigint;
  best: bigint;
}

interface ModelRound {
  up: bigint;
  down: bigint;
  voters: bigint;
  last: number;
}

interface ConsensusArgs {
  asset: string;
  window: bigint;
  bucket: bigint;
  direction: bigint;
  strengthBps: bigint;
  voters: bigint;
  upWeight: bigint;
  downWeight: bigint;
}

interface Model {
  now: bigint;
  agents: ModelAgent[];
  calls: ModelCall[];
  rounds: Map<string, ModelRound>;
  /** Price checkpoints per asset, as the mock oracle keeps them. */
  prices: Map<string, Array<[bigint, bigint]>>;
  failures: Map<string, number>;
  consensusLog: ConsensusArgs[];
  flips: number;
  /** Flips whose new side holds less than the threshold. */
  weakFlips: number;
  quorum: bigint;
  thresholdBps: bigint;
}

interface Real {
  f: LedgerFixture;
  ledger: CallLedger;
  probe: CallLedgerProbe;
  agents: HardhatEthersSigner[];
  ledgerAddress: string;
  chainId: bigint;
}

const totals = { runs: 0, steps: 0, consensus: 0, flips: 0, weakFlips: 0, settled: 0, expired: 0, voids: 0 };

async function modelFixture() {
  const f = await ledgerFixture();
  await f.ledger.connect(f.admin).setWindow(600, true);
  // Agents 0-3 start staked so that histories reach calls quickly; agent 4 starts with nothing.
  for (const agent of f.agents.slice(0, 4)) await f.ledger.connect(agent).deposit(INITIAL_STAKE);
  const probe = await ethers.deployContract("CallLedgerProbe");
  // Start on a day boundary, so every history meets the same bucket boundaries whatever the wall
  // clock: with the fixed seed a failure then replays exactly.
  await time.increaseTo((BigInt(await time.latest()) / BigInt(DAY) + 1n) * BigInt(DAY));
  return { f, probe };
}

/** Sends `tx` in the block after the model's clock, and advances the clock if it was mined. */
async function mined(model: Model, send: () => Promise<ContractTransactionResponse>) {
  await time.setNextBlockTimestamp(model.now + 1n);
  const receipt = await (await send()).wait();
  model.now += 1n;
  return receipt!;
}

/**
 * Expects `send` to revert with `error(args)` (from `contract`, the ledger by default) in the
 * block after the model's clock. Hardhat mines the failed transaction, so the clock moves too.
 */
async function reverts(
  model: Model,
  real: Real,
  send: () => Promise<unknown>,
  error: string,
  args: unknown[],
  contract: CallLedger | MockPriceOracle = real.ledger,
) {
  await time.setNextBlockTimestamp(model.now + 1n);
  await expect(send())
    .to.be.revertedWithCustomError(contract, error)
    .withArgs(...args);
  model.now = BigInt(await time.latest());
}

function modelStatus(call: ModelCall): number {
  return {
    committed: Status.Committed,
    revealed: Status.Revealed,
    settled: Status.Settled,
    expired: Status.Expired,
  }[call.status];
}

function priceAt(model: Model, asset: string, t: bigint): bigint | undefined {
  const history = model.prices.get(asset)!;
  for (let i = history.length - 1; i >= 0; i--) if (history[i]![0] <= t) return history[i]![1];
  return undefined;
}

function resolve(agent: ModelAgent, outcome: number) {
  agent.open -= 1n;
  if (outcome === Outcome.Hit) {
    agent.hits += 1n;
    agent.streak += 1n;
    if (agent.streak > agent.best) agent.best = agent.streak;
  } else if (outcome === Outcome.Miss) {
    agent.misses += 1n;
    agent.streak = 0n;
  } else {
    agent.voids += 1n;
  }
}

function consensusEvents(ledger: CallLedger, receipt: ContractTransactionReceipt): ConsensusArgs[] {
  const events: ConsensusArgs[] = [];
  for (const log of receipt.logs) {
    const parsed = ledger.interface.parseLog(log);
    if (parsed?.name !== "Consensus") continue;
    const a = parsed.args;
    events.push({
      asset: a.asset,
      window: a.window,
      bucket: a.bucket,
      direction: a.direction,
      strengthBps: a.strengthBps,
      voters: a.voters,
      upWeight: a.upWeight,
      downWeight: a.downWeight,
    });
  }
  return events;
}

/**
 * Picks a call for `index` (commands are generated before the calls exist): an even index picks
 * one of the three latest calls in the `preferred` status, so that lifecycles run to the end;
 * an odd index (or no such call) picks any call, to hit the wrong-status errors too.
 */
function pick(model: Model, index: number, preferred: CallStatus): ModelCall | undefined {
  if (model.calls.length === 0) return undefined;
  const candidates = model.calls.filter((c) => c.status === preferred);
  if (index % 2 === 0 && candidates.length > 0) {
    return candidates[candidates.length - 1 - ((index >> 1) % Math.min(candidates.length, 3))];
  }
  return model.calls[(index >> 1) % model.calls.length];
}

class DepositCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly agent: number,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const signer = real.agents[this.agent]!;
    await mined(model, () => real.ledger.connect(signer).deposit(this.amount));
    model.agents[this.agent]!.stake += this.amount;
  }
  toString = () => `deposit(agent ${this.agent}, ${this.amount})`;
}

class WithdrawCommand implements fc.AsyncCommand<Model, Real> {
  /** `mode`: 0 everything, 1 down to just under minStake, 2 one USDG, 3 more than the stake. */
  constructor(
    readonly agent: number,
    readonly mode: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const state = model.agents[this.agent]!;
    const signer = real.agents[this.agent]!;
    const nearMinimum = state.stake > MIN_STAKE ? state.stake - MIN_STAKE + 1n : 0n;
    const amount = [state.stake, nearMinimum, USDG, state.stake + 1n][this.mode]!;
    const withdraw = () => real.ledger.connect(signer).withdraw(amount);
    if (amount <= 0n) {
      await reverts(model, real, withdraw, "CallLedgerZeroAmount", []);
    } else if (amount > state.stake) {
      await reverts(model, real, withdraw, "CallLedgerInsufficientStake", [state.stake, amount]);
    } else if (state.open > 0n && state.stake - amount < MIN_STAKE) {
      await reverts(model, real, withdraw, "CallLedgerStakeLocked", [
        state.stake - amount,
        MIN_STAKE,
        state.open,
      ]);
    } else {
      await mined(model, withdraw);
      state.stake -= amount;
    }
  }
  toString = () => `withdraw(agent ${this.agent}, mode ${this.mode})`;
}

class CommitCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly agent: number,
    readonly params: CallParams,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const state = model.agents[this.agent]!;
    const signer = real.agents[this.agent]!;
    const commitment = commitmentOf(real.chainId, real.ledgerAddress, signer.address, this.params);
    const commit = () => real.ledger.connect(signer).commit(commitment);
    if (state.stake < MIN_STAKE) {
      await reverts(model, real, commit, "CallLedgerStakeBelowMinimum", [
        signer.address,
        state.stake,
        MIN_STAKE,
      ]);
      return;
    }
    const receipt = await mined(model, commit);
    const id = expectedCallId(signer.address, state.commits, model.now);
    const log = receipt.logs
      .map((l) => real.ledger.interface.parseLog(l))
      .find((p) => p?.name === "Committed");
    expect(log?.args.callId).to.equal(id);
    state.commits += 1n;
    state.open += 1n;
    model.calls.push({
      id,
      agent: this.agent,
      params: this.params,
      committedAt: model.now,
      status: "committed",
      resolutions: 0,
    });
  }
  toString = () => `commit(agent ${this.agent}, ${JSON.stringify(this.params)})`;
}

class RevealCommand implements fc.AsyncCommand<Model, Real> {
  /** `tamper`: 0 honest, 1 wrong salt, 2 revealed by the next agent. */
  constructor(
    readonly index: number,
    readonly tamper: number,
    readonly target?: ModelCall,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const call = this.target ?? pick(model, this.index, "committed");
    if (call === undefined) return;
    const owner = real.agents[call.agent]!;
    const caller = this.tamper === 2 ? real.agents[(call.agent + 1) % AGENT_COUNT]! : owner;
    const p = this.tamper === 1 ? { ...call.params, salt: ethers.id(call.params.salt) } : call.params;
    const reveal = () =>
      real.ledger.connect(caller).reveal(call.id, p.asset, p.window, p.direction, p.confidenceBps, p.salt);
    const t = model.now + 1n;
    const deadline = call.committedAt + BigInt(REVEAL_TIMEOUT);
    if (call.status !== "committed") {
      await reverts(model, real, reveal, "CallLedgerNotCommitted", [call.id, modelStatus(call)]);
    } else if (caller !== owner) {
      await reverts(model, real, reveal, "CallLedgerNotCallAgent", [call.id, owner.address, caller.address]);
    } else if (t > deadline) {
      await reverts(model, real, reveal, "CallLedgerRevealTimedOut", [call.id, deadline, t]);
    } else if (this.tamper === 1) {
      const committed = commitmentOf(real.chainId, real.ledgerAddress, owner.address, call.params);
      const revealed = commitmentOf(real.chainId, real.ledgerAddress, owner.address, p);
      await reverts(model, real, reveal, "CallLedgerCommitmentMismatch", [call.id, committed, revealed]);
    } else if (p.confidenceBps < 5000 || p.confidenceBps > 10_000) {
      await reverts(model, real, reveal, "CallLedgerBadConfidence", [p.confidenceBps]);
    } else if (model.failures.get(p.asset) === Failure.NoSource) {
      await reverts(model, real, reveal, "PriceOracleNoSource", [p.asset], real.f.oracle);
    } else {
      const receipt = await mined(model, reveal);
      const state = model.agents[call.agent]!;
      const vote = ONE + scoreModel(state.hits, state.misses, state.stake, MIN_STAKE);
      const history = model.prices.get(p.asset)!;
      call.entry = history[history.length - 1]![1];
      call.closesAt = model.now + BigInt(p.window);
      call.status = "revealed";
      const bucket = call.closesAt / BigInt(p.window);
      const revealed = receipt.logs
        .map((l) => real.ledger.interface.parseLog(l))
        .find((x) => x?.name === "Revealed");
      expect([revealed?.args.entryPrice, revealed?.args.closesAt, revealed?.args.vote]).to.deep.equal([
        call.entry,
        call.closesAt,
        vote,
      ]);
      // The model of the round, and the announcement it predicts.
      const key = `${p.asset}/${p.window}/${bucket}`;
      const round = model.rounds.get(key) ?? { up: 0n, down: 0n, voters: 0n, last: Direction.None };
      if (p.direction === Direction.Up) round.up += vote;
      else round.down += vote;
      round.voters += 1n;
      model.rounds.set(key, round);
      const total = round.up + round.down;
      // First announcement: quorum and threshold. After it: any change of the strictly larger
      // side, whatever its strength (a tie has no leader).
      let holding: number = Direction.None;
      if (round.last !== Direction.None) {
        if (round.up > round.down) holding = Direction.Up;
        else if (round.down > round.up) holding = Direction.Down;
      } else if (round.voters >= model.quorum) {
        if (round.up * 10_000n >= model.thresholdBps * total) holding = Direction.Up;
        else if (round.down * 10_000n >= model.thresholdBps * total) holding = Direction.Down;
      }
      const expected: ConsensusArgs[] = [];
      if (holding !== Direction.None && holding !== round.last) {
        const lead = holding === Direction.Up ? round.up : round.down;
        if (round.last !== Direction.None) {
          model.flips += 1;
          if (lead * 10_000n < model.thresholdBps * total) model.weakFlips += 1;
        }
        round.last = holding;
        expected.push({
          asset: p.asset,
          window: BigInt(p.window),
          bucket,
          direction: BigInt(holding),
          strengthBps: (lead * 10_000n) / total,
          voters: round.voters,
          upWeight: round.up,
          downWeight: round.down,
        });
        model.consensusLog.push(expected[0]!);
      }
      expect(consensusEvents(real.ledger, receipt)).to.deep.equal(expected);
      // I6 and the round's stored state: tallies, votes and last announced side, as modelled.
      const stored = await real.ledger.round(p.asset, p.window, bucket);
      expect([...stored]).to.deep.equal([round.up, round.down, round.voters, BigInt(round.last)]);
      expect(round.up + round.down >= round.voters * ONE, "I6: tallies >= voters × 1e18").to.equal(true);
      if (expected.length === 1) {
        const entry = await real.ledger.consensusAt(model.consensusLog.length - 1);
        expect([entry.asset, entry.window, entry.bucket, entry.direction, entry.strengthBps]).to.deep.equal([
          p.asset,
          BigInt(p.window),
          bucket,
          expected[0]!.direction,
          expected[0]!.strengthBps,
        ]);
        expect([entry.voters, entry.upWeight, entry.downWeight]).to.deep.equal([
          round.voters,
          round.up,
          round.down,
        ]);
      }
    }
  }
  toString = () => `reveal(#${this.index}, tamper ${this.tamper})`;
}

class BurstCommand implements fc.AsyncCommand<Model, Real> {
  /** Several agents commit calls on one asset and window, then all reveal one second later. */
  constructor(readonly calls: Array<[number, CallParams]>) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const committed: ModelCall[] = [];
    for (const [agent, params] of this.calls) {
      const before = model.calls.length;
      await new CommitCommand(agent, params).run(model, real);
      if (model.calls.length > before) committed.push(model.calls[before]!);
    }
    for (const call of committed) await new RevealCommand(0, 0, call).run(model, real);
  }
  toString = () => `burst(${this.calls.map(([a, p]) => `${a}:${p.direction}`).join(" ")})`;
}

class SettleCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const call = pick(model, this.index, "revealed");
    if (call === undefined) return;
    const settle = () => real.ledger.connect(real.f.outsider).settle(call.id);
    const t = model.now + 1n;
    if (call.status !== "revealed") {
      await reverts(model, real, settle, "CallLedgerNotRevealed", [call.id, modelStatus(call)]);
      return;
    }
    if (t < call.closesAt!) {
      await reverts(model, real, settle, "CallLedgerNotClosed", [call.id, call.closesAt!, t]);
      return;
    }
    const failure = model.failures.get(call.params.asset) ?? Failure.None;
    const exit = failure === Failure.None ? priceAt(model, call.params.asset, call.closesAt!) : undefined;
    let outcome: number = Outcome.Void;
    if (exit !== undefined && exit !== call.entry) {
      outcome = exit > call.entry! === (call.params.direction === Direction.Up) ? Outcome.Hit : Outcome.Miss;
    }
    const receipt = await mined(model, settle);
    const settled = receipt.logs
      .map((l) => real.ledger.interface.parseLog(l))
      .find((x) => x?.name === "Settled");
    expect([settled?.args.outcome, settled?.args.exitPrice]).to.deep.equal([BigInt(outcome), exit ?? 0n]);
    call.status = "settled";
    call.resolutions += 1;
    resolve(model.agents[call.agent]!, outcome);
    totals.settled += 1;
    if (outcome === Outcome.Void) totals.voids += 1;
  }
  toString = () => `settle(#${this.index})`;
}

class ExpireCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const call = pick(model, this.index, "committed");
    if (call === undefined) return;
    const expire = () => real.ledger.connect(real.f.outsider).expire(call.id);
    const t = model.now + 1n;
    const deadline = call.committedAt + BigInt(REVEAL_TIMEOUT);
    if (call.status !== "committed") {
      await reverts(model, real, expire, "CallLedgerNotCommitted", [call.id, modelStatus(call)]);
    } else if (t <= deadline) {
      await reverts(model, real, expire, "CallLedgerRevealNotTimedOut", [call.id, deadline, t]);
    } else {
      await mined(model, expire);
      call.status = "expired";
      call.resolutions += 1;
      resolve(model.agents[call.agent]!, Outcome.Miss);
      totals.expired += 1;
    }
  }
  toString = () => `expire(#${this.index})`;
}

class PriceCommand implements fc.AsyncCommand<Model, Real> {
  /** Moves `asset`'s price by `deltaBps` (zero keeps it: a void if it spans a call). */
  constructor(
    readonly asset: number,
    readonly deltaBps: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const asset = ASSETS[this.asset]!;
    const history = model.prices.get(asset)!;
    const current = history[history.length - 1]![1];
    const next = (current * BigInt(10_000 + this.deltaBps)) / 10_000n;
    await mined(model, () => real.f.oracle.setPrice(asset, next));
    history.push([model.now, next]);
  }
  toString = () => `price(asset ${this.asset}, ${this.deltaBps} bps)`;
}

class OracleFailureCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly asset: number,
    readonly failure: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const asset = ASSETS[this.asset]!;
    await mined(model, () => real.f.oracle.setFailure(asset, this.failure));
    model.failures.set(asset, this.failure);
  }
  toString = () => `oracleFailure(asset ${this.asset}, ${this.failure})`;
}

class ParametersCommand implements fc.AsyncCommand<Model, Real> {
  /** The owner changes the quorum and threshold, possibly in the middle of rounds. */
  constructor(
    readonly quorum: number,
    readonly thresholdBps: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const owner = real.ledger.connect(real.f.admin);
    await mined(model, () => owner.setConsensusQuorum(this.quorum));
    await mined(model, () => owner.setThresholdBps(this.thresholdBps));
    model.quorum = BigInt(this.quorum);
    model.thresholdBps = BigInt(this.thresholdBps);
  }
  toString = () => `parameters(quorum ${this.quorum}, ${this.thresholdBps} bps)`;
}

class AdvanceCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: bigint) {}
  check = () => true;
  async run(model: Model) {
    model.now += this.seconds;
    await time.increaseTo(model.now);
  }
  toString = () => `advance(${this.seconds}s)`;
}

/** The invariants, on chain, after every command. */
async function checkInvariants(model: Model, real: Real) {
  const [balance, records, consensusCount] = await real.probe.snapshot(
    real.ledgerAddress,
    real.agents.map((a) => a.address),
  );
  const stakes = model.agents.reduce((sum, a) => sum + a.stake, 0n);
  expect(balance, "I1: USDG held = sum of stakes").to.equal(stakes);
  expect(records.reduce((sum, r) => sum + r.stake, 0n)).to.equal(stakes);
  for (const [i, record] of records.entries()) {
    const m = model.agents[i]!;
    expect(
      [record.stake, record.commits, record.openCalls, record.hits, record.misses, record.voids],
      `agent ${i} record`,
    ).to.deep.equal([m.stake, m.commits, m.open, m.hits, m.misses, m.voids]);
    expect([record.streak, record.bestStreak], `agent ${i} streaks`).to.deep.equal([m.streak, m.best]);
    const resolved = BigInt(
      model.calls.filter((c) => c.agent === i && (c.status === "settled" || c.status === "expired")).length,
    );
    expect(record.hits + record.misses + record.voids, "I2: counted = settled + expired").to.equal(resolved);
    expect(record.commits, "I2: commits = open + counted").to.equal(record.openCalls + resolved);
    expect(record.streak <= record.bestStreak, "I3: streak <= bestStreak").to.equal(true);
    if (record.openCalls > 0n)
      expect(record.stake >= MIN_STAKE, "I5: open calls keep minStake").to.equal(true);
  }
  expect(consensusCount).to.equal(BigInt(model.consensusLog.length));
  for (const call of model.calls) expect(call.resolutions, "I4: resolved at most once").to.be.at.most(1);
}

function withInvariants(command: fc.AsyncCommand<Model, Real>): fc.AsyncCommand<Model, Real> {
  return {
    check: (m) => command.check(m),
    run: async (m, r) => {
      await command.run(m, r);
      totals.steps += 1;
      await checkInvariants(m, r);
    },
    toString: () => command.toString(),
  };
}

describe("CallLedger model", () => {
  const agent = fc.nat({ max: AGENT_COUNT - 1 });
  const callIndex = fc.nat({ max: 1000 });
  const quorum = fc.constantFrom(1, 2, QUORUM);
  const threshold = fc.constantFrom(5001, 6000, THRESHOLD_BPS);
  const callParams: fc.Arbitrary<CallParams> = fc.record({
    // Mostly one asset and window, so that rounds fill up and can flip.
    asset: fc.constantFrom(ASSETS[0]!, ASSETS[0]!, ASSETS[0]!, ASSETS[1]!),
    window: fc.constantFrom(HOUR, HOUR, HOUR, 600),
    direction: fc.constantFrom(Direction.Up, Direction.Down),
    // Mostly valid; now and then one that can never be revealed and must expire.
    confidenceBps: fc.oneof(
      { weight: 15, arbitrary: fc.integer({ min: 5000, max: 10_000 }) },
      { weight: 1, arbitrary: fc.constantFrom(4999, 10_001) },
    ),
    salt: fc.nat().map((n) => ethers.zeroPadValue(ethers.toBeHex(n), 32)),
  });
  // Weighted towards the call lifecycle, so that rounds fill up (and flip) and calls resolve.
  const weighted: Array<[number, fc.Arbitrary<fc.AsyncCommand<Model, Real>>]> = [
    [1, fc.tuple(agent, fc.constantFrom(...DEPOSITS)).map(([a, amount]) => new DepositCommand(a, amount))],
    [1, fc.tuple(agent, fc.nat({ max: 3 })).map(([a, mode]) => new WithdrawCommand(a, mode))],
    [5, fc.tuple(agent, callParams).map(([a, p]) => new CommitCommand(a, p))],
    [5, callIndex.map((i) => new RevealCommand(i, 0))],
    [1, fc.tuple(callIndex, fc.constantFrom(1, 2)).map(([i, t]) => new RevealCommand(i, t))],
    [
      2,
      fc
        .tuple(
          fc.constantFrom(...ASSETS),
          fc.constantFrom(600, HOUR),
          fc.uniqueArray(fc.tuple(agent, callParams), {
            minLength: 2,
            maxLength: AGENT_COUNT,
            selector: ([a]) => a,
          }),
        )
        .map(
          ([asset, window, calls]) =>
            new BurstCommand(calls.map(([a, p]) => [a, { ...p, asset, window, confidenceBps: 6000 + a }])),
        ),
    ],
    [3, callIndex.map((i) => new SettleCommand(i))],
    [1, callIndex.map((i) => new ExpireCommand(i))],
    [
      6,
      fc
        .tuple(fc.nat({ max: ASSETS.length - 1 }), fc.constantFrom(-300, -20, 0, 20, 300))
        .map(([a, d]) => new PriceCommand(a, d)),
    ],
    [
      1,
      fc
        .tuple(
          fc.nat({ max: ASSETS.length - 1 }),
          // Outages are rare and end again: mostly back to None.
          fc.constantFrom(
            Failure.None,
            Failure.None,
            Failure.None,
            Failure.WindowNotCovered,
            Failure.NoSource,
          ),
        )
        .map(([a, m]) => new OracleFailureCommand(a, m)),
    ],
    [2, fc.tuple(quorum, threshold).map(([q, t]) => new ParametersCommand(q, t))],
    [3, fc.constantFrom(...TIME_STEPS).map((s) => new AdvanceCommand(s))],
  ];
  const commands = [
    fc.oneof(
      ...weighted.map(([weight, arbitrary]) => ({ weight, arbitrary: arbitrary.map(withInvariants) })),
    ),
  ];

  it(`keeps every invariant and matches the model over ${MODEL_RUNS} random histories of up to ${MODEL_COMMANDS} steps`, async function () {
    this.timeout(0);
    await fc.assert(
      fc.asyncProperty(
        quorum,
        threshold,
        fc.commands(commands, { maxCommands: MODEL_COMMANDS, size: "max" }),
        async (q, t, cmds) => {
          const { f, probe } = await loadFixture(modelFixture);
          // Each history starts from its own consensus parameters (launch values included).
          await f.ledger.connect(f.admin).setConsensusQuorum(q);
          await f.ledger.connect(f.admin).setThresholdBps(t);
          const agents = f.agents.slice(0, AGENT_COUNT);
          const now = BigInt(await time.latest());
          const model: Model = {
            now,
            agents: agents.map((_, i) => ({
              stake: i < 4 ? INITIAL_STAKE : 0n,
              commits: 0n,
              open: 0n,
              hits: 0n,
              misses: 0n,
              voids: 0n,
              streak: 0n,
              best: 0n,
            })),
            calls: [],
            rounds: new Map(),
            // The fixture priced both assets at START_PRICE at or before `now`.
            prices: new Map(ASSETS.map((a) => [a, [[0n, START_PRICE]]])),
            failures: new Map(),
            consensusLog: [],
            flips: 0,
            weakFlips: 0,
            quorum: BigInt(q),
            thresholdBps: BigInt(t),
          };
          const real: Real = {
            f,
            ledger: f.ledger,
            probe,
            agents,
            ledgerAddress: await f.ledger.getAddress(),
            chainId: (await ethers.provider.getNetwork()).chainId,
          };
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          totals.runs += 1;
          totals.consensus += model.consensusLog.length;
          totals.flips += model.flips;
          totals.weakFlips += model.weakFlips;
        },
      ),
      { numRuns: MODEL_RUNS },
    );
    console.log(`      model: ${JSON.stringify(totals)}`);
    // The histories must actually reach the interesting states, or the test proves little.
    expect(totals.settled, "some calls settled").to.be.greaterThan(0);
    expect(totals.expired, "some calls expired").to.be.greaterThan(0);
    expect(totals.voids, "some calls voided").to.be.greaterThan(0);
    expect(totals.consensus, "some rounds reached consensus").to.be.greaterThan(0);
    expect(totals.flips, "some rounds flipped").to.be.greaterThan(0);
    expect(totals.weakFlips, "some flips were below the threshold").to.be.greaterThan(0);
  });
});
