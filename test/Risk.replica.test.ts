import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, mine, time } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { anchorStep, buildApp, measureStep, riskStep, RpcMeasureChain, runCycle } from "@augur/engine";
import { FakeKeeper, registration, sign, testWallet } from "@augur/engine/test-support";
import { augurDomain, typedDataTypes, type MeasuredSnapshotBody } from "@augur/records";
import { measuredReplica, measuredSeasonStore, sourceOf } from "./shared/measured";

/**
 * Seed 003's "Could you get out" and "Largest depositor" for the engine's own vaults, end to end
 * on the replica (issue 21): wallets bound at registration trade on the replica's Uniswap v3 pools
 * and receive deposits; the hourly cycle measures them with Uniswap's QuoterV2, anchors, and seals
 * the risk readings; each served reading equals what the chain says, computed here the long way
 * (balanceOf at the pinned block, priceAt, QuoterV2 for one wallet and for every measured wallet
 * of the pool together, USDG transfer logs), and reads null with its reason where it cannot.
 */
const HOUR = 3600;
const USDG = 10n ** 6n;

interface Reading {
  vault_id: string;
  reading: number | null;
  reason: string | null;
  inputs: {
    free_share?: number | null;
    largest_depositor_share?: number | null;
    source?: Record<string, unknown>;
  };
}

/** The engine's share rule: a ratio of integers to 9 decimals, capped at 1. */
const ratio = (part: bigint, whole: bigint) => Math.min(1, Number((part * 1_000_000_000n) / whole) / 1e9);

describe("risk on the replica: exit and largest depositor measured from the chain", () => {
  it('"Could you get out" and "Largest depositor" for the engine\'s own vaults: read from the wallets\' depositors and the pools\' depth, null with the reason where the chain cannot say', async () => {
    const { replica, oracle, quoter } = await loadFixture(measuredReplica);
    const signers = await ethers.getSigners();
    const [alpha, beta, idle, friend] = [signers[15]!, signers[16]!, signers[17]!, signers[18]!];
    const stock = replica.stocks[0]!;
    const usdgToken = (await replica.usdg.getAddress()).toLowerCase();
    const T0 = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR + HOUR;
    await time.increaseTo(T0 - 1800);
    const store = await measuredSeasonStore(T0);
    let now = await time.latest();
    const chainId = Number((await ethers.provider.getNetwork()).chainId);
    const app = await buildApp({ store, chainId, now: () => now });
    try {
      // Each agent's book is a wallet it proves at registration (EIP-712, signed by the wallet's key).
      const register = async (agentId: string, wallet: HardhatEthersSigner) => {
        const [agent, creator] = [testWallet(`risk ${agentId}`), testWallet(`risk creator ${agentId}`)];
        const message = {
          ...registration(agentId, agent, creator),
          registeredAt: now,
          wallet: wallet.address,
        };
        const signed = await sign("RegistrationV2", message, agent, creator);
        const walletSignature = await wallet.signTypedData(
          augurDomain(chainId),
          typedDataTypes("RegistrationV2"),
          message,
        );
        const res = await app.inject({
          method: "POST",
          url: "/api/v1/records",
          headers: { "content-type": "application/json" },
          payload: JSON.stringify({ ...signed, walletSignature }),
        });
        expect(res.statusCode, res.body).to.equal(201);
      };
      await register("alpha", alpha);
      await register("beta", beta);
      await register("idle", idle);

      // Alpha: 10,000 USDG minted to it and 2,500 from a friend; beta 10,000; idle nothing.
      await replica.fund(alpha.address, "USDG", 10_000n * USDG);
      await replica.fund(beta.address, "USDG", 10_000n * USDG);
      await replica.fund(friend.address, "USDG", 2_500n * USDG);
      await (await replica.usdg.connect(friend).transfer(alpha.address, 2_500n * USDG)).wait();
      // Both buy the same pool in the first hour: neither can get out at its lone quote.
      await replica.swap(stock, "buy", 6_000n * USDG, { from: alpha, at: T0 + 600 });
      await replica.swap(stock, "buy", 4_000n * USDG, { from: beta, at: T0 + 900 });
      const T1 = T0 + HOUR;
      await time.increaseTo(T1 + 60);
      await mine(1);
      now = T1 + 60;

      const chain = new RpcMeasureChain(ethers.provider, quoter);
      const report = await runCycle({
        store,
        steps: [measureStep(chain, sourceOf(replica, oracle)), anchorStep(new FakeKeeper()), riskStep()],
        now: () => now,
        progress: () => {},
      });
      expect(report.riskRows).to.equal(3);
      const component = async (c: string) => {
        const res = await app.inject(`/api/v1/risk/components/${c}?season_id=s1`);
        expect(res.statusCode, res.body).to.equal(200);
        const readings = res.json<{ readings: Reading[] }>().readings;
        return Object.fromEntries(readings.map((r) => [r.vault_id, r]));
      };
      const exit = await component("exit");
      const depositor = await component("largest_depositor");

      // The chain the long way, at the block the last snapshot pinned (the last one at or before T1).
      const [last] = (
        await store.db
          .selectFrom("records")
          .select("body")
          .where("kind", "=", "snapshot")
          .where("agent_id", "=", "alpha")
          .execute()
      )
        .map((r) => JSON.parse(r.body) as MeasuredSnapshotBody)
        .filter((b) => b.takenAt === T1);
      const block = last!.block.number;
      expect((await ethers.provider.getBlock(block))!.timestamp).to.be.at.most(T1);
      expect((await ethers.provider.getBlock(block + 1))?.timestamp ?? Infinity).to.be.above(T1);
      const cash = await replica.usdg.balanceOf(alpha.address, { blockTag: block });
      const held = await stock.token.balanceOf(alpha.address, { blockTag: block });
      const together = held + (await stock.token.balanceOf(beta.address, { blockTag: block }));
      const quote = (amount: bigint) =>
        chain.sellQuote(
          block,
          stock.poolAddress.toLowerCase(),
          stock.address.toLowerCase(),
          usdgToken,
          amount,
        );
      const lone = (await quote(held))!;
      const pooledShare = ((await quote(together))! * held) / together;
      expect(pooledShare, "selling beside beta fetches less than alone").to.be.lessThan(lone);
      const price = await oracle.priceAt(stock.address, T1);
      const atOracle = cash + (held * price) / 10n ** BigInt(stock.decimals + 18 - replica.usdgDecimals);
      expect(exit.alpha!.inputs.free_share).to.equal(ratio(cash + pooledShare, atOracle));
      expect(exit.alpha!.inputs.source).to.include({
        block,
        usdg: String(cash + pooledShare),
        value_at_oracle: String(atOracle),
        positions_at_pooled_share: 1,
      });
      expect(exit.alpha!.reading).to.equal(
        Math.max(0, Math.round(1e6 * (1 - exit.alpha!.inputs.free_share! / 0.25)) / 1e6),
      );
      // Idle's wallet holds nothing: no share of nothing can be got out.
      expect([exit.idle!.reading, exit.idle!.reason]).to.deep.equal([
        null,
        "the wallet is empty at the last reading",
      ]);

      // Depositors from the USDG transfer logs into the wallet: the mint (from 0x0) and the friend.
      const logs = await replica.usdg.queryFilter(
        replica.usdg.filters.Transfer(undefined, alpha.address),
        0,
        block,
      );
      const paid = new Map<string, bigint>();
      for (const l of logs) {
        const from = l.args.from.toLowerCase();
        if (from === stock.poolAddress.toLowerCase()) continue; // a swap is a trade, not a deposit
        paid.set(from, (paid.get(from) ?? 0n) + l.args.value);
      }
      expect([...paid.values()].sort((a, b) => (a < b ? -1 : 1))).to.deep.equal([
        2_500n * USDG,
        10_000n * USDG,
      ]);
      expect(depositor.alpha!.inputs.largest_depositor_share).to.equal(0.8); // 10,000 of 12,500
      expect(depositor.alpha!.inputs.source).to.deep.equal({
        depositors: 2,
        deposited: String(12_500n * USDG),
        snapshots: 2,
      });
      expect(depositor.alpha!.reading).to.equal(Math.round(1e6 * ((0.8 - 0.25) / 0.75)) / 1e6);
      expect(depositor.beta!.inputs.largest_depositor_share).to.equal(1);
      expect(depositor.beta!.reading).to.equal(1);
      expect([depositor.idle!.reading, depositor.idle!.reason]).to.deep.equal([
        null,
        "no USDG deposit into the wallet was observed",
      ]);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
