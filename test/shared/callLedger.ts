import { ethers } from "hardhat";
import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { ContractTransactionReceipt, ContractTransactionResponse } from "ethers";
import { isCoverageRun, snapshotGasValue } from "./gas";
import type { CallLedger, MockPriceOracle, MockUSDG } from "../../typechain-types";

/** Mirrors `ICallLedger.Direction`. */
export const Direction = { None: 0, Up: 1, Down: 2 } as const;
/** Mirrors `ICallLedger.Status`. */
export const Status = { None: 0, Committed: 1, Revealed: 2, Settled: 3, Expired: 4 } as const;
/** Mirrors `ICallLedger.Outcome`. */
export const Outcome = { None: 0, Hit: 1, Miss: 2, Void: 3 } as const;
/** Mirrors `MockPriceOracle.Failure`. */
export const Failure = {
  None: 0,
  NoSource: 1,
  WindowNotCovered: 2,
  StalePrice: 3,
  OtherError: 4,
  EmptyRevert: 5,
  ObserveFailed: 6,
} as const;

export const ONE = 10n ** 18n;
/** USDG has 6 decimals. */
export const USDG = 10n ** 6n;
export const MIN_STAKE = 100n * USDG;
export const HOUR = 3600;
export const DAY = 86_400;
/** Launch parameters set by the constructor. */
export const REVEAL_TIMEOUT = HOUR;
export const QUORUM = 3;
export const THRESHOLD_BPS = 6667;

/** Stand-in stock token addresses (the mock oracle prices any address). */
export const ASSETS = [
  "0x00000000000000000000000000000000000A0001",
  "0x00000000000000000000000000000000000A0002",
].map((a) => ethers.getAddress(a));
/** 180 USDG per share, 18 decimals. */
export const START_PRICE = 180n * ONE;

export interface CallParams {
  asset: string;
  window: number;
  direction: number;
  confidenceBps: number;
  salt: string;
}

export interface LedgerFixture {
  ledger: CallLedger;
  usdg: MockUSDG;
  oracle: MockPriceOracle;
  admin: HardhatEthersSigner;
  agents: HardhatEthersSigner[];
  outsider: HardhatEthersSigner;
}

/**
 * A ledger on the mock oracle and a plain 6-decimal USDG: windows of 1 hour and 1 day allowed,
 * both assets priced at 180 USDG, eight agents each holding and approving 1,000,000 USDG.
 * Use through `loadFixture` so each test starts from the same snapshot.
 */
export async function ledgerFixture(): Promise<LedgerFixture> {
  const [admin, ...rest] = await ethers.getSigners();
  const agents = rest.slice(0, 8);
  const outsider = rest[8]!;
  const usdg = await ethers.deployContract("MockUSDG");
  const oracle = await ethers.deployContract("MockPriceOracle");
  const ledger = await ethers.deployContract("CallLedger", [
    await usdg.getAddress(),
    await oracle.getAddress(),
    MIN_STAKE,
    admin!.address,
  ]);
  await ledger.connect(admin).setWindow(HOUR, true);
  await ledger.connect(admin).setWindow(DAY, true);
  for (const asset of ASSETS) await oracle.setPrice(asset, START_PRICE);
  for (const agent of agents) {
    await usdg.mint(agent.address, 1_000_000n * USDG);
    await usdg.connect(agent).approve(await ledger.getAddress(), ethers.MaxUint256);
  }
  return { ledger, usdg, oracle, admin: admin!, agents, outsider };
}

/** The commitment `agent` submits for `call` on `chainId` and ledger `ledgerAddress`. */
export function commitmentOf(
  chainId: bigint,
  ledgerAddress: string,
  agent: string,
  call: CallParams,
): string {
  return ethers.keccak256(
    ethers.AbiCoder.defaultAbiCoder().encode(
      ["uint256", "address", "address", "address", "uint32", "uint8", "uint16", "bytes32"],
      [chainId, ledgerAddress, agent, call.asset, call.window, call.direction, call.confidenceBps, call.salt],
    ),
  );
}

/** A call with sensible defaults; `salt` derived from `seed` so tests are deterministic. */
export function makeCall(overrides: Partial<CallParams> = {}, seed = 1): CallParams {
  return {
    asset: ASSETS[0]!,
    window: HOUR,
    direction: Direction.Up,
    confidenceBps: 7000,
    salt: ethers.zeroPadValue(ethers.toBeHex(seed), 32),
    ...overrides,
  };
}

/** The call id `commit` returned, read from the `Committed` log of `receipt`. */
export function callIdFrom(ledger: CallLedger, receipt: ContractTransactionReceipt | null): bigint {
  for (const log of receipt?.logs ?? []) {
    const parsed = ledger.interface.parseLog(log);
    if (parsed?.name === "Committed") return parsed.args.callId as bigint;
  }
  throw new Error("no Committed event in receipt");
}

/** Commits `call` for `agent` (on this chain and ledger) and returns its id. */
export async function commitCall(
  ledger: CallLedger,
  agent: HardhatEthersSigner,
  call: CallParams,
): Promise<bigint> {
  const { chainId } = await ethers.provider.getNetwork();
  const commitment = commitmentOf(chainId, await ledger.getAddress(), agent.address, call);
  const receipt = await (await ledger.connect(agent).commit(commitment)).wait();
  return callIdFrom(ledger, receipt);
}

/** Reveals `call` as call `callId` of `agent`. */
export function revealCall(ledger: CallLedger, agent: HardhatEthersSigner, callId: bigint, call: CallParams) {
  return ledger
    .connect(agent)
    .reveal(callId, call.asset, call.window, call.direction, call.confidenceBps, call.salt);
}

/** `callId` as the contract builds it: agent ‖ 32-bit sequence ‖ 64-bit commit time. */
export function expectedCallId(agent: string, sequence: bigint, committedAt: bigint): bigint {
  return (BigInt(agent) << 96n) | (sequence << 64n) | committedAt;
}

/** The score model of seed 001, as exact integers: floor(h² · s · 1e18 / (min · (h + m + 1))). */
export function scoreModel(hits: bigint, misses: bigint, stake: bigint, minStake: bigint): bigint {
  if (hits === 0n) return 0n;
  return (hits * hits * stake * ONE) / (minStake * (hits + misses + 1n));
}

/** Gas targets of issue 4, per transaction. */
export const GAS_TARGET = { commit: 60_000, reveal: 160_000, settle: 100_000, expire: 60_000 };

export const COVERAGE = isCoverageRun();

/** `snapshotGas`, checking the mined transaction succeeded (under coverage too). */
export async function measureGas(name: string, tx: Promise<ContractTransactionResponse>): Promise<number> {
  const receipt = await (await tx).wait();
  expect(receipt?.status).to.equal(1);
  return snapshotGasValue(name, Number(receipt!.gasUsed));
}

/** `expect(gas).to.be.at.most(target)`, except under coverage. */
export function withinTarget(gas: number, target: number): void {
  if (!COVERAGE) expect(gas).to.be.at.most(target);
}
