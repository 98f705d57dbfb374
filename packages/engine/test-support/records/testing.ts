import { expect } from "chai";
import { createHash } from "node:crypto";
import { augurDomain, erasableText, typedDataTypes, ZERO_HASH, type RecordTypeName } from "@augur/records";
import { Wallet } from "ethers";
import type { Store } from "../../src/store/open";
import { insertSeason } from "../../src/store/queries/seasons";
import type { Submission } from "../../src/records/ingest";

/** Deterministic keys for tests, derived from a label (never used outside tests). */
export function testWallet(label: string): Wallet {
  return new Wallet(`0x${createHash("sha256").update(`augur test key|${label}`).digest("hex")}`);
}

export const TEST_CHAIN_ID = 31337;
export const SEASON_START = 1_800_000_000;
export const SEASON_END = SEASON_START + 28 * 86400;
/** A "now" inside the test season. */
export const TEST_NOW = SEASON_START + 86400;

export async function addTestSeason(
  store: Store,
  id = "s1",
  closedAt: number | null = null,
  inputs: "declared" | "measured" = "declared",
): Promise<void> {
  await insertSeason(store.db, {
    id,
    name: `Season ${id}`,
    starts_at: SEASON_START,
    ends_at: SEASON_END,
    closed_at: closedAt,
    created_at: SEASON_START - 86400,
    inputs,
  });
}

export async function sign(
  type: RecordTypeName,
  message: Record<string, string | number>,
  signer: Wallet,
  creator?: Wallet,
  chainId = TEST_CHAIN_ID,
): Promise<Submission> {
  const domain = augurDomain(chainId);
  const types = typedDataTypes(type);
  const signature = await signer.signTypedData(domain, types, message);
  if (!creator) return { type, message, signature };
  return { type, message, signature, creatorSignature: await creator.signTypedData(domain, types, message) };
}

export const ASSET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

export function registration(agentId: string, agent: Wallet, creator: Wallet, seasonId = "s1") {
  return {
    agentId,
    seasonId,
    creator: creator.address,
    agentKey: agent.address,
    style: "momentum",
    registeredAt: SEASON_START - 3600,
  };
}

/** A RegistrationV2 binding `wallet` (by default the agent's own key's account). */
export function registrationV2(
  agentId: string,
  agent: Wallet,
  creator: Wallet,
  wallet = agent.address,
  seasonId = "s1",
) {
  return { ...registration(agentId, agent, creator, seasonId), wallet };
}

/** Signs a RegistrationV2 by the agent, its creator and the wallet's key. */
export async function signV2(
  message: Record<string, string | number>,
  agent: Wallet,
  creator: Wallet,
  walletKey: Wallet = agent,
): Promise<Submission> {
  const signed = await sign("RegistrationV2", message, agent, creator);
  const walletSignature = await walletKey.signTypedData(
    augurDomain(TEST_CHAIN_ID),
    typedDataTypes("RegistrationV2"),
    message,
  );
  return { ...signed, walletSignature };
}

export function snapshot(agentId: string, takenAt: number, nav = "1000000000", seasonId = "s1") {
  return { agentId, seasonId, takenAt, nav, flow: "0", investedBps: 5000 };
}

export function decision(agentId: string, decidedAt: number, seasonId = "s1") {
  return {
    agentId,
    seasonId,
    decidedAt,
    asset: ASSET,
    action: "buy",
    source: "decider",
    confidenceBps: 6500,
    note: "breakout above the 20-day high",
  };
}

/**
 * A `DecisionV3`: the decision above with its note out of the message, which seals the note's
 * salted hash (`noteHash`, zero for no note) and names no trade; the note comes back apart.
 */
export function decisionV3(agentId: string, decidedAt: number, note = "", seasonId = "s1") {
  const { note: _sealedInV1, ...fields } = decision(agentId, decidedAt, seasonId);
  void _sealedInV1;
  const text = erasableText(note);
  return { message: { ...fields, noteHash: text.hash, txHash: ZERO_HASH }, text };
}

export function trade(agentId: string, executedAt: number, seasonId = "s1") {
  return {
    agentId,
    seasonId,
    executedAt,
    asset: ASSET,
    side: "buy",
    quantity: "2000000000000000000",
    price: "180000000000000000000",
    txHash: `0x${"c3".repeat(32)}`,
  };
}

/** Registers one agent in season `s1`; returns its key and creator. */
export async function registerTestAgent(
  ingest: (s: Submission) => Promise<unknown>,
  agentId: string,
): Promise<{ agent: Wallet; creator: Wallet }> {
  const agent = testWallet(`agent ${agentId}`);
  const creator = testWallet(`creator of ${agentId}`);
  await ingest(await sign("Registration", registration(agentId, agent, creator), agent, creator));
  return { agent, creator };
}

/** Expects `submission` to be refused with `type` and nothing appended to the log; returns the error. */
export async function expectRefused<E extends Error>(
  store: Store,
  ingest: (s: Submission) => Promise<unknown>,
  submission: Submission,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const before = await store.log.size(store.db);
  const error = await ingest(submission).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a refusal").to.be.instanceOf(type);
  expect(await store.log.size(store.db), "nothing appended").to.equal(before);
  return error as E;
}

/**
 * Submissions whose outcome depends on their order: a record before and after its agent's
 * registration, two records for one moment (the second is the equivocation), one dated before
 * its registration, a duplicate, a stranger's signature, a second registration, and refusals
 * the worker itself makes (a garbage signature, a malformed field).
 */
export async function orderedSequence(): Promise<Submission[]> {
  const beta = testWallet("agent beta");
  const betaCreator = testWallet("creator of beta");
  const gamma = testWallet("agent gamma");
  const gammaCreator = testWallet("creator of gamma");
  const betaReg = { ...registration("beta", beta, betaCreator), registeredAt: TEST_NOW - 100 };
  const first = await sign("Snapshot", snapshot("beta", TEST_NOW - 50, "1000"), beta);
  return [
    await sign("Snapshot", snapshot("beta", TEST_NOW - 40), beta), // before beta exists
    await sign("Registration", betaReg, beta, betaCreator),
    first,
    await sign("Snapshot", snapshot("beta", TEST_NOW - 50, "2000"), beta), // same moment
    await sign("Snapshot", snapshot("beta", TEST_NOW - 200), beta), // before registration
    first, // the same record again
    await sign("Snapshot", snapshot("beta", TEST_NOW - 30), testWallet("mallory")),
    { ...(await sign("Snapshot", snapshot("beta", TEST_NOW - 20), beta)), signature: `0x${"00".repeat(65)}` },
    await sign("Snapshot", { ...snapshot("beta", TEST_NOW - 10), investedBps: 10_001 }, beta),
    await sign("Registration", registration("gamma", gamma, gammaCreator), gamma, gammaCreator),
    await sign("Decision", decision("gamma", TEST_NOW - 60), gamma),
    await sign("Trade", trade("gamma", TEST_NOW - 60), gamma),
    await sign("Registration", { ...betaReg, registeredAt: TEST_NOW - 90 }, beta, betaCreator), // beta again
    await sign("Snapshot", snapshot("beta", TEST_NOW - 40), beta), // after beta exists
  ];
}
