import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { augurOnReplica } from "../shared/augur";
import { rejection } from "../shared/rejection";

/** Node accounts the task tests act as (0 deploys and keeps, 1 trades on the replica). */
export const AGENT = "2";
export const OTHER_AGENT = "3";
export const UNSTAKED = "4";

/** The deployment plus two agents holding USDG, agent 2 staked at the minimum. */
export async function agentsOnReplica() {
  const deployment = await loadFixture(augurOnReplica);
  const signers = await hre.ethers.getSigners();
  for (const index of [AGENT, OTHER_AGENT, UNSTAKED]) {
    await deployment.replica!.fund(signers[Number(index)]!.address, "USDG", 10_000n * 10n ** 6n);
  }
  await quietly(() => hre.run("stake:deposit", { amount: "100", account: AGENT, json: true }));
  return deployment;
}

/** Runs a task without its console output (the tests read the returned value). */
export async function quietly<T>(body: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await body();
  } finally {
    console.log = log;
  }
}

export function freshVault(): string {
  return join(mkdtempSync(join(tmpdir(), "augur-vault-")), "vault.json");
}

export async function nonceOf(account: string): Promise<number> {
  const signer = (await hre.ethers.getSigners())[Number(account)]!;
  return hre.ethers.provider.getTransactionCount(signer.address);
}

/**
 * Runs `task` expecting a refusal: one line, carrying an error of class `type` (or of that name),
 * and no transaction sent from `account`.
 */
export async function expectRefusal(
  task: string,
  args: Record<string, unknown>,
  type: (abstract new (...a: never[]) => Error) | string,
  message: RegExp,
  account = AGENT,
): Promise<Error> {
  const before = await nonceOf(account);
  const error = (await rejection(quietly(() => hre.run(task, args)))) as Error & {
    parent?: Error;
    pluginName?: string;
  };
  expect(error.pluginName, `${task}: ${error.message}`).to.equal("augur");
  if (typeof type === "string") expect(error.parent?.name).to.equal(type);
  else expect(error.parent).to.be.instanceOf(type);
  expect(error.message).to.match(message);
  expect(error.message).to.not.include("\n");
  expect(await nonceOf(account), `${task} sent a transaction`).to.equal(before);
  return error.parent!;
}
