import { expect } from "chai";
import hre from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { readFileSync } from "node:fs";
import {
  buildCommitment,
  Direction,
  randomSalt,
  SaltVault,
  VaultPassphraseError,
  type CallInfo,
} from "@augur/agent";
import { AGENT, agentsOnReplica, freshVault, quietly } from "./helpers";

interface Committed {
  callId: bigint;
  commitment: string;
  vault: string;
}

async function commit(vault: string, overrides: Record<string, unknown> = {}): Promise<Committed> {
  const result = (await quietly(() =>
    hre.run("call:commit", {
      asset: "NVDA",
      window: "3600",
      direction: "up",
      confidence: "7000",
      account: AGENT,
      vault,
      json: true,
      ...overrides,
    }),
  )) as { callId: bigint; commitment: string };
  return { callId: result.callId, commitment: result.commitment, vault };
}

async function status(callId: bigint): Promise<CallInfo> {
  return (await quietly(() =>
    hre.run("call:status", { callId: callId.toString(), account: AGENT, json: true }),
  )) as CallInfo;
}

describe("tasks on the replica: a call's life", function () {
  it("commit → reveal → settle, the vault following each step, the outcome on the agent's record", async function () {
    const deployment = await loadFixture(agentsOnReplica);
    const vaultPath = freshVault();
    const { callId, commitment } = await commit(vaultPath);
    expect(SaltVault.open(vaultPath).get(commitment)!.state).to.equal("committed");
    expect((await status(callId)).status).to.equal("committed");

    const revealed = (await quietly(() =>
      hre.run("call:reveal", { callId: callId.toString(), account: AGENT, vault: vaultPath, json: true }),
    )) as { closesAt: number; entryPrice: bigint };
    expect(revealed.entryPrice > 0n).to.equal(true);
    const call = await status(callId);
    expect([call.status, call.direction, call.window, call.confidenceBps]).to.deep.equal([
      "revealed",
      "up",
      3600,
      7000,
    ]);
    expect(call.asset).to.equal(deployment.assets.NVDA);

    // Buy NVDA through the window so the TWAP at the close sits above the entry: a hit.
    for (let i = 0; i < 6; i += 1) {
      await time.increase(600);
      await deployment.replica!.swap("NVDA", "buy", 200_000n * 10n ** 6n);
    }
    if ((await time.latest()) < revealed.closesAt) await time.increaseTo(revealed.closesAt);
    const settled = (await quietly(() =>
      hre.run("call:settle", { callId: callId.toString(), account: AGENT, vault: vaultPath, json: true }),
    )) as { outcome: string };
    expect(settled.outcome).to.equal("hit");
    expect(SaltVault.open(vaultPath).get(commitment)!.state).to.equal("settled");
    const standing = (await quietly(() =>
      hre.run("call:status", { account: AGENT, vault: vaultPath, json: true }),
    )) as {
      hits: bigint;
      misses: bigint;
      streak: bigint;
      score: bigint;
      open: unknown[];
    };
    expect([standing.hits, standing.misses, standing.streak]).to.deep.equal([1n, 0n, 1n]);
    // One hit at minimum stake scores 0.5 (the seed's figure).
    expect(standing.score).to.equal(5n * 10n ** 17n);
    expect(standing.open).to.deep.equal([]);
  });

  it("a call left unrevealed past the timeout is expired: a miss", async function () {
    await loadFixture(agentsOnReplica);
    const { callId, vault, commitment } = await commit(freshVault());
    await time.increase(3601);
    await quietly(() =>
      hre.run("call:expire", { callId: callId.toString(), account: AGENT, vault, json: true }),
    );
    expect((await status(callId)).status).to.equal("expired");
    expect(SaltVault.open(vault).get(commitment)!.state).to.equal("expired");
    const standing = (await quietly(() => hre.run("call:status", { account: AGENT, vault, json: true }))) as {
      misses: bigint;
    };
    expect(standing.misses).to.equal(1n);
  });

  it("--auto-reveal reveals from the next block and settles once the call closes", async function () {
    await loadFixture(agentsOnReplica);
    const vault = freshVault();
    const running = quietly(() =>
      hre.run("call:commit", {
        asset: "META",
        window: "3600",
        direction: "down",
        confidence: "9000",
        account: AGENT,
        vault,
        json: true,
        autoReveal: true,
        pollMs: "20",
      }),
    ) as Promise<{ steps: { action: string }[] }>;
    // Let the pilot reveal, then move the clock past the close while it waits.
    let closesAt = 0;
    for (let i = 0; i < 500 && closesAt === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const entries = SaltVault.open(vault).list();
      closesAt = entries[0]?.state === "revealed" ? entries[0].closesAt! : 0;
    }
    expect(closesAt).to.be.greaterThan(0);
    await time.increaseTo(closesAt);
    const result = await running;
    expect(result.steps.map((s) => s.action)).to.deep.equal(["revealed", "settled"]);
    expect(SaltVault.open(vault).list()[0]!.state).to.equal("settled");
  });

  it("a crash after the commit: a restarted agent reveals from the vault file", async function () {
    await loadFixture(agentsOnReplica);
    const { callId, vault } = await commit(freshVault());
    // The process dies here; a new one has only the file.
    const resumed = (await quietly(() => hre.run("call:resume", { account: AGENT, vault, json: true }))) as {
      steps: { action: string; callId?: bigint }[];
    };
    expect(resumed.steps.map((s) => [s.action, s.callId])).to.deep.equal([
      ["revealed", callId],
      ["waiting", callId],
    ]);
    expect((await status(callId)).status).to.equal("revealed");
  });

  it("a crash between sending the commit and recording its id: resume finds the id on chain, then reveals", async function () {
    const deployment = await loadFixture(agentsOnReplica);
    const vaultPath = freshVault();
    const agent = (await hre.ethers.getSigners())[Number(AGENT)]!;
    const ledger = await hre.ethers.getContractAt("CallLedger", deployment.callLedger, agent);
    const terms = {
      asset: deployment.assets.NVDA!,
      window: 3600,
      direction: Direction.Down,
      confidenceBps: 6000,
      salt: randomSalt(),
    };
    const commitment = buildCommitment(
      { chainId: 31337, ledger: deployment.callLedger, agent: agent.address },
      terms,
    );
    // What commitCall does up to the crash: the salt on disk, the transaction mined, nothing more.
    SaltVault.open(vaultPath).put({
      commitment,
      chainId: 31337,
      ledger: deployment.callLedger,
      agent: agent.address,
      ...terms,
      preparedAt: 1,
      state: "prepared",
    });
    await (await ledger.commit(commitment)).wait();

    const resumed = (await quietly(() =>
      hre.run("call:resume", { account: AGENT, vault: vaultPath, json: true }),
    )) as { steps: { action: string }[] };
    expect(resumed.steps.map((s) => s.action)).to.deep.equal(["recovered", "revealed", "waiting"]);
    const entry = SaltVault.open(vaultPath).get(commitment)!;
    expect(entry.state).to.equal("revealed");
    expect((await status(BigInt(entry.callId!))).direction).to.equal("down");
  });

  it("a crash before the commit was sent: resume drops the unused salt and sends nothing", async function () {
    const deployment = await loadFixture(agentsOnReplica);
    const vaultPath = freshVault();
    const agent = (await hre.ethers.getSigners())[Number(AGENT)]!;
    const terms = {
      asset: deployment.assets.TSLA!,
      window: 3600,
      direction: Direction.Up,
      confidenceBps: 8000,
      salt: randomSalt(),
    };
    const commitment = buildCommitment(
      { chainId: 31337, ledger: deployment.callLedger, agent: agent.address },
      terms,
    );
    SaltVault.open(vaultPath).put({
      commitment,
      chainId: 31337,
      ledger: deployment.callLedger,
      agent: agent.address,
      ...terms,
      preparedAt: 1,
      state: "prepared",
    });
    const nonce = await hre.ethers.provider.getTransactionCount(agent.address);
    const resumed = (await quietly(() =>
      hre.run("call:resume", { account: AGENT, vault: vaultPath, json: true }),
    )) as { steps: { action: string }[] };
    expect(resumed.steps.map((s) => s.action)).to.deep.equal(["dropped"]);
    expect(SaltVault.open(vaultPath).list()).to.deep.equal([]);
    expect(await hre.ethers.provider.getTransactionCount(agent.address)).to.equal(nonce);
  });

  it("with AUGUR_VAULT_PASSPHRASE the tasks keep the vault encrypted and still reveal from it", async function () {
    await loadFixture(agentsOnReplica);
    const vault = freshVault();
    process.env.AUGUR_VAULT_PASSPHRASE = "agent passphrase";
    try {
      const { callId, commitment } = await commit(vault);
      expect(readFileSync(vault, "utf8")).to.not.include(commitment.slice(2));
      expect(() => SaltVault.open(vault)).to.throw(VaultPassphraseError);
      await quietly(() =>
        hre.run("call:reveal", { callId: callId.toString(), account: AGENT, vault, json: true }),
      );
      expect(SaltVault.open(vault, "agent passphrase").get(commitment)!.state).to.equal("revealed");
    } finally {
      delete process.env.AUGUR_VAULT_PASSPHRASE;
    }
  });

  it("consensus:show reports the round the reveals land in", async function () {
    const deployment = await loadFixture(agentsOnReplica);
    const { callId, vault } = await commit(freshVault(), { direction: "down" });
    await quietly(() =>
      hre.run("call:reveal", { callId: callId.toString(), account: AGENT, vault, json: true }),
    );
    const view = (await quietly(() =>
      hre.run("consensus:show", { asset: "NVDA", window: "3600", json: true }),
    )) as { voters: number; downWeight: bigint; upWeight: bigint; direction: string; asset: string };
    expect(view.asset).to.equal(deployment.assets.NVDA);
    expect([view.voters, view.upWeight, view.direction]).to.deep.equal([1, 0n, "none"]);
    expect(view.downWeight).to.equal(10n ** 18n);
  });
});
