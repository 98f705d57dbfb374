import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { seal } from "@augur/scorer";
import {
  anchorStep,
  listStewardshipDays,
  openStore,
  recordStewardshipDays,
  ReorgTooDeepError,
  runCycle,
  stewardshipStep,
  stewardshipTransfersBefore,
} from "@augur/engine";
import {
  DAY,
  DUST,
  fundOperator,
  HOUR,
  openTokenMonitor,
  projectTokenChain,
  TokenScript,
  USDG,
} from "./shared/projectToken";

/**
 * The stewardship monitor end to end on the replica (issue 9): a project token and its USDG pool,
 * a scripted 34-day history on chain, the engine's followers and daily cycle step, and the sealed
 * records checked against the days the kill rules name. Same shape as the scorer's pure season
 * (season.test.ts), compressed:
 *   Holders (wallets seeded at exactly the dust line by the operator): 25 more a day on days 0–4
 *   (armed on day 4 at 125), then 3 a day hand their tokens back from day 20 (125 − 3(d − 19)).
 *   Holders fire on day 33: its window starts on day 4 at 125 and ends at 83 (−33.6 %); on day 32
 *   it starts on day 3 at 100 and ends at 86 (−14 %): nothing.
 *   Volume: grace buys $1,000 a day on days 0–1, then $100 (organic); under $500 from day 2, so
 *   the volume trigger fires on day 31 (the 30th day): maintenance on days 31–32, wind-down from
 *   day 33, with "both" that day.
 *   From day 2, wash trades of each kind are mixed in every day: (a) xavier buys, sends the
 *   tokens to ivan, who sells them; (b) rita buys and sells 90 % back, three times; (c) sam
 *   funded alba and bea on day 0, alba buys what bea sells. Every trader stays under the dust line.
 */
const DAYS = 34;

function expectedHolders(d: number): number {
  return d < 5 ? 25 * (d + 1) : d < 20 ? 125 : 125 - 3 * (d - 19);
}

async function scriptedChain() {
  const chain = await projectTokenChain();
  const signers = await ethers.getSigners();
  const [operator, marketMaker, grace, rita, xavier, ivan, alba, bea, sam] =
    signers as HardhatEthersSigner[] & Record<number, HardhatEthersSigner>;
  await fundOperator(chain, operator!, 200n * DUST);
  return {
    ...chain,
    holders: chain.wallets(125),
    people: { operator: operator!, marketMaker: marketMaker!, grace: grace!, rita: rita!, xavier: xavier! },
    more: { ivan: ivan!, alba: alba!, bea: bea!, sam: sam! },
  };
}

describe("stewardship monitor on the replica: a scripted token history through the daily records", () => {
  it("fires each trigger on the day the rules say and finds every wash-trade cluster by its criterion", async () => {
    const chain = await loadFixture(scriptedChain);
    const { holders, midnight } = chain;
    const { operator, grace, rita, xavier } = chain.people;
    const { ivan, alba, bea, sam } = chain.more;

    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      const source = await openTokenMonitor(store, chain, [operator], 500);
      expect(source.scope.firstDay).to.equal(midnight / DAY);
      const script = await TokenScript.start(chain);

      // Day 0 funding for the (c) cluster: sam gets tokens from the operator and funds alba and bea.
      await script.send(operator, sam.address, (95n * DUST) / 100n, midnight + HOUR);
      await script.send(sam, alba.address, 10n ** 18n, midnight + HOUR + 60);
      await script.send(sam, bea.address, (90n * DUST) / 100n, midnight + HOUR + 120);

      for (let d = 0; d < DAYS; d++) {
        const t = midnight + d * DAY;
        if (d < 5) await script.seed(operator, holders.slice(25 * d, 25 * d + 25), DUST, t + 2 * HOUR);
        if (d >= 20) {
          await script.handBack(
            holders.slice(3 * (d - 20), 3 * (d - 20) + 3),
            operator.address,
            DUST,
            t + 3 * HOUR,
          );
        }
        await script.swap(grace, "buy", USDG(d < 2 ? 1000 : 100), t + 4 * HOUR);
        if (d >= 2) {
          for (const hour of [5, 8, 11]) {
            const bought = await script.swap(rita, "buy", USDG(200), t + hour * HOUR); // (b)
            await script.swap(rita, "sell", (bought.amountOut * 9n) / 10n, t + (hour + 1) * HOUR);
          }
          const relayed = await script.swap(xavier, "buy", USDG(200), t + 13 * HOUR); // (a)
          await script.send(xavier, ivan.address, relayed.amountOut, t + 14 * HOUR);
          await script.swap(ivan, "sell", relayed.amountOut, t + 15 * HOUR);
          const funded = await script.swap(alba, "buy", USDG(200), t + 16 * HOUR); // (c)
          await script.swap(bea, "sell", funded.amountOut, t + 17 * HOUR);
        }
        // Past midnight: the cycle seals the day that just closed.
        const clock = await script.closeDay(d);
        const report = await runCycle({
          store,
          steps: [anchorStep(), stewardshipStep(source)],
          now: () => clock,
        });
        expect(report.stewardshipDays, `day ${d}`).to.have.length(1);
      }

      const days = await listStewardshipDays(store.db);
      expect(days).to.have.length(DAYS);
      const bodies = days.map((r) => r.body);
      expect(bodies.map((b) => b.holders)).to.deep.equal(
        Array.from({ length: DAYS }, (_, d) => expectedHolders(d)),
      );
      expect(bodies.map((b) => b.organicVolumeUsd)).to.deep.equal(
        Array.from({ length: DAYS }, (_, d) => (d < 2 ? 1000 : 100)),
      );

      const first = (flag: "holdersArmed" | "holdersTrigger" | "volumeTrigger" | "bothTrigger") =>
        bodies.findIndex((b) => b[flag]);
      expect(first("holdersArmed")).to.equal(4);
      expect(first("volumeTrigger")).to.equal(31);
      expect(first("holdersTrigger")).to.equal(33);
      expect(first("bothTrigger")).to.equal(33);
      expect(bodies[32]).to.include({ holdersWindowStart: 100, holders: 86, holdersTrigger: false });
      expect(bodies[30]).to.include({ state: "normal", volumeDaysBelow: 29 });
      expect(bodies[31]).to.include({ state: "maintenance", stateSince: days[31]!.day });
      expect(bodies[32]).to.include({ state: "maintenance", stateSince: days[31]!.day });
      expect(bodies[33]).to.include({
        state: "wind-down",
        stateSince: days[33]!.day,
        holdersWindowStart: 125,
      });

      const lower = (s: HardhatEthersSigner) => s.address.toLowerCase();
      for (const d of [0, 1]) expect(bodies[d]!.evidence, `day ${d}`).to.deep.equal([]);
      for (let d = 2; d < DAYS; d++) {
        const b = bodies[d]!;
        expect(
          b.evidence.map((e) => [e.criterion, e.cluster]),
          `day ${d}`,
        ).to.deep.equal([
          ["a", [lower(ivan), lower(xavier)].sort()],
          ["b", []], // rita round-trips alone: published in aggregate, unnamed
          ["c", [lower(alba), lower(bea), lower(sam)].sort()],
        ]);
        const [a, bEvidence, c] = b.evidence;
        expect(a!.measures.trades).to.equal(Math.min(d - 1, 30));
        expect(bEvidence!.measures.round_trips).to.equal(3 * Math.min(d - 1, 30));
        expect(bEvidence!.measures.wallets).to.equal(1);
        expect(c!.measures.source).to.equal(lower(sam));
        expect(c!.measures.net).to.equal("0");
        // Every wash trade of the day is excluded: 6 (b) swaps, 2 (a), 2 (c), about $200 each.
        expect(b.excludedVolumeUsd, `day ${d}`).to.be.within(1800, 2200);
      }
      for (const r of days) expect(seal(r.body)).to.equal(r.seal);
    } finally {
      await store.close();
    }
  });

  it('(c) "a cluster funded from one source": a wash pair funded only in ETH from one source is a cluster', async () => {
    const chain = await loadFixture(scriptedChain);
    const { midnight, people } = chain;
    const [sid, cora, dora] = (await ethers.getSigners()).slice(9, 12) as HardhatEthersSigner[];
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      const source = await openTokenMonitor(store, chain, [people.operator]);
      const script = await TokenScript.start(chain);
      // sid funds cora and dora in ETH only (a send to a contract that refuses ETH moves nothing).
      const nonce = await ethers.provider.getTransactionCount(sid!.address);
      const eth = async (to: string, t: number, gasLimit?: number) => {
        await script.at(t);
        try {
          const sent = await sid!.sendTransaction({
            to,
            value: 10n ** 17n,
            ...(gasLimit ? { gasLimit } : {}),
          });
          return (await sent.wait())!.status;
        } catch {
          return 0; // mined, reverted (the node throws on a failed transaction)
        }
      };
      expect(await eth(await chain.batcher.getAddress(), midnight + HOUR, 100_000)).to.equal(0);
      expect(await eth(cora!.address, midnight + HOUR + 60)).to.equal(1);
      expect(await eth(dora!.address, midnight + HOUR + 120)).to.equal(1);
      expect(await ethers.provider.getTransactionCount(sid!.address)).to.equal(nonce + 3);
      // Each buys and sells back 90 %: one round trip each (not (b)), net 10 % of gross: (c).
      for (const [who, h] of [
        [cora!, 2],
        [dora!, 4],
      ] as const) {
        const bought = await script.swap(who, "buy", USDG(300), midnight + h * HOUR);
        await script.swap(who, "sell", (bought.amountOut * 9n) / 10n, midnight + (h + 1) * HOUR);
      }
      const clock = await script.closeDay(0);
      expect(await recordStewardshipDays(store, source, clock)).to.have.length(1);

      const sends = await stewardshipTransfersBefore(store.db, source.scope.chainId, "eth", clock);
      expect(sends.map((t) => [t.from_address, t.to_address, t.amount, t.log_index])).to.deep.equal(
        [cora!, dora!].map((s) => [
          sid!.address.toLowerCase(),
          s.address.toLowerCase(),
          "100000000000000000",
          -1,
        ]),
      );
      const [day0] = await listStewardshipDays(store.db);
      const lower = (s: HardhatEthersSigner) => s.address.toLowerCase();
      expect(day0!.body.evidence.map((e) => [e.criterion, e.cluster])).to.deep.equal([
        ["c", [lower(cora!), lower(dora!), lower(sid!)].sort()],
      ]);
      expect(day0!.body.evidence[0]!.measures.source).to.equal(lower(sid!));
      expect(day0!.body.excludedVolumeUsd).to.be.within(1100, 1200);
    } finally {
      await store.close();
    }
  });

  it("rolls a reorganised transfer back instead of counting it, and stops at a reorg below a sealed day", async () => {
    const chain = await loadFixture(scriptedChain);
    const { batcher, stock, holders, midnight, people } = chain;
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      const source = await openTokenMonitor(store, chain, [people.operator]);
      // Raw timestamps, not a TokenScript: the chain is reverted under the script's feet here.
      const seed = async (n: number, at: number) => {
        await time.setNextBlockTimestamp(at);
        const batch = holders.slice(0, n);
        await (
          await batcher.connect(people.operator).send(
            stock.address,
            batch,
            batch.map(() => DUST),
          )
        ).wait();
      };
      const fork = (await ethers.provider.send("evm_snapshot", [])) as string;
      await seed(5, midnight + HOUR);
      await source.sync(); // the five transfers are stored…
      expect(await ethers.provider.send("evm_revert", [fork])).to.equal(true);
      const again = (await ethers.provider.send("evm_snapshot", [])) as string; // a snapshot reverts once
      await seed(2, midnight + 2 * HOUR); // …then reorganised away: another block, two wallets
      await time.setNextBlockTimestamp(midnight + DAY + 60);
      await ethers.provider.send("evm_mine", []);
      expect(
        (
          await runCycle({
            store,
            steps: [anchorStep(), stewardshipStep(source)],
            now: () => midnight + DAY + 60,
          })
        ).stewardshipDays,
      ).to.have.length(1);
      const [day0] = await listStewardshipDays(store.db);
      expect(day0!.body.holders).to.equal(2);

      // A reorg below the block the sealed day was measured up to is deeper than the confirmations.
      expect(await ethers.provider.send("evm_revert", [again])).to.equal(true);
      await seed(3, midnight + 3 * HOUR);
      await time.setNextBlockTimestamp(midnight + DAY + 120);
      await ethers.provider.send("evm_mine", []);
      const error = await source.sync().catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ReorgTooDeepError);
      expect(await listStewardshipDays(store.db)).to.have.length(1);
    } finally {
      await store.close();
    }
  });
});
