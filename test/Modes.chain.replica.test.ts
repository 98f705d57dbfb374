import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { seal } from "@augur/scorer";
import {
  assertMaySpend,
  buildApp,
  FinalNoticeSealedError,
  registryFinalPoster,
  sealFinalNotice,
  dateOf,
  insertSeason,
  latestAnchor,
  listStewardshipDays,
  modeHistory,
  openStore,
  runCli as main,
  runCycle,
  anchorStep,
  modesStep,
  stewardshipStep,
  storeLocation,
  type ReceiptDocument,
} from "@augur/engine";
import { fakeIo, registration, sign, sitePages, snapshot, testWallet } from "@augur/engine/test-support";
import { expectEveryProofOnChain, RegistryKeeper } from "./shared/anchoring";
import {
  DAY,
  DUST,
  fundOperator,
  HOUR,
  openTokenMonitor,
  projectTokenChain,
  TOKENS,
  TokenScript,
  USDG,
} from "./shared/projectToken";
import { serveRpc } from "./shared/rpcBridge";

/**
 * Issue 12 end to end on chain: a scripted project-token history drives the real stewardship
 * monitor, whose sealed days drive the engine's mode, while a keeper anchors every head in a
 * deployed AnchorRegistry and operator wallets spend and burn the token; then the archive and
 * `augur receipt` are checked against the chain.
 *
 * The script (day d runs from `midnight + d·DAY`; each night's cycle seals day d just after its
 * midnight, so a change of day d is declared on day d + 1), with the expected days worked out
 * from the rules of docs/stewardship.md:
 *   Holders (wallets at exactly the dust line, seeded by operator A through the batcher): 60 on
 *   day 0, 120 from day 1 (> 100: armed on day 1); 6 leave a day on days 34–36 (114, 108, 102;
 *   on day 35 one of the six burns instead of handing back). The holder trigger needs
 *   (holders[d−29] − holders[d]) × 10,000 ≥ 1,500 × holders[d−29]: day 35 is 120 → 108 (−10 %):
 *   nothing; day 36 is 120 → 102, exactly −15 %, and the line itself fires → wind-down on day 36.
 *   Organic volume (grace's one buy a day): $1,000 on day 0, then $100 from day 1; the volume
 *   trigger fires on the 30th consecutive day under $500, day 30 (days 1–30) → maintenance on
 *   day 30; grace buys $1,000 on day 33 (the run is broken) → active on day 33; $100 after.
 *   Operator A's own $2,000 buy on day 10 is not organic (an excluded wallet): the run goes on.
 *   "Both" is true on day 36 (the volume trigger held on days 30–32, inside 7–36), so the
 *   wind-down's cause is `both`; the keeper anchors at once, so the same cycle (day 37) records
 *   `archived` naming that final anchor, and day 37's cycle seals nothing more.
 *   Spends (token out of an operator wallet to anyone but an operator or a burn address): the
 *   seeding, 120 × 1,000,000 tokens; 3,000 to carol (day 5, A); 12,345 to dave (day 20, B);
 *   7,000 to carol (day 34, B) — none while in maintenance. A → B 500,000 on day 25 is an
 *   internal move. Burns (to 0x…dEaD): A 250,000 (day 31), a holder's 1,000,000 (day 35), A
 *   1,000,000 and B 40,000 (day 37, archived).
 */
const DAYS_SEALED = 37; // days 0–36; day 36 winds down, so the step seals nothing after it
const LAST_DAY = 37;
const DEAD = "0x000000000000000000000000000000000000dEaD";

const expectedHolders = (d: number) => (d === 0 ? 60 : d <= 33 ? 120 : 120 - 6 * (d - 33));
const expectedOrganic = (d: number) => (d === 0 || d === 33 ? 1000 : 100);
const expectedState = (d: number) =>
  d < 30 ? "normal" : d <= 32 ? "maintenance" : d <= 35 ? "normal" : "wind-down";
/** The mode each night's cycle reports after sealing day d. */
const expectedMode = (d: number) =>
  d < 30 ? "active" : d <= 32 ? "maintenance" : d <= 35 ? "active" : "archived";

async function scenario() {
  const chain = await projectTokenChain();
  const [keeper, opA, opB, grace, carol, dave] = (await ethers.getSigners()).slice(
    10,
    16,
  ) as HardhatEthersSigner[] & Record<number, HardhatEthersSigner>;
  const registry = await (
    await ethers.getContractFactory("AnchorRegistry")
  ).deploy(chain.project.deployer.address, keeper!.address);
  await fundOperator(chain, opA!, 125n * DUST);
  await fundOperator(chain, opB!, DUST);
  return {
    chain,
    registry: registry.connect(keeper!),
    holders: chain.wallets(120),
    people: { keeper: keeper!, opA: opA!, opB: opB!, grace: grace!, carol: carol!, dave: dave! },
  };
}

describe("modes on chain: a token history through maintenance, wind-down, the archive and the receipt", function () {
  this.timeout(300_000);

  it("follows the sealed days, refuses writes, archives with every proof, and receipts the spends", async () => {
    const { chain, registry, holders, people } = await loadFixture(scenario);
    const { keeper, opA, opB, grace, carol, dave } = people;
    const { midnight } = chain;
    const day = (d: number) => dateOf(midnight / DAY + d);
    const dataDir = mkdtempSync(join(tmpdir(), "augur-modes-chain-"));
    // A file store, so `augur receipt --save` below writes where the app reads.
    const store = await openStore(storeLocation({ dataDir }));
    let appClock = midnight + 600;
    const app = await buildApp(
      { store, chainId: 31337, now: () => appClock },
      { writesPerMinute: 1_000_000 },
    );
    const rpc = await serveRpc(hre.network.provider);
    try {
      const source = await openTokenMonitor(store, chain, [opA, opB]);
      const chainKeeper = new RegistryKeeper(store, registry);
      const script = await TokenScript.start(chain);

      await insertSeason(store.db, {
        id: "long",
        name: "Long season",
        starts_at: midnight,
        ends_at: midnight + 100 * DAY,
        closed_at: null,
        created_at: midnight - DAY,
      });
      const agent = testWallet("agent ada");
      const creator = testWallet("creator of ada");
      const post = async (body: unknown) =>
        app.inject({ method: "POST", url: "/api/v1/records", payload: body as object });
      const reg = { ...registration("ada", agent, creator, "long"), registeredAt: appClock };
      expect((await post(await sign("Registration", reg, agent, creator))).statusCode).to.equal(201);

      const fromBlock = chain.startBlock;
      // The operators' scripted token moves, on their days, an hour into the day.
      const tokenMoves: Record<number, (t: number) => Promise<void>> = {
        5: (t) => script.send(opA, carol.address, TOKENS(3_000), t),
        20: (t) => script.send(opB, dave.address, TOKENS(12_345), t),
        25: (t) => script.send(opA, opB.address, TOKENS(500_000), t), // internal: not spent
        31: (t) => script.send(opA, DEAD, TOKENS(250_000), t),
        34: (t) => script.send(opB, carol.address, TOKENS(7_000), t),
        37: async (t) => {
          await script.send(opA, DEAD, TOKENS(1_000_000), t);
          await script.send(opB, DEAD, TOKENS(40_000), t);
        },
      };
      const modes: string[] = [];
      const written: number[] = [];
      for (let d = 0; d <= LAST_DAY; d += 1) {
        const t = midnight + d * DAY;
        await tokenMoves[d]?.(t + HOUR);
        if (d <= 1) await script.seed(opA, holders.slice(60 * d, 60 * d + 60), DUST, t + 2 * HOUR);
        if (d >= 34 && d <= 36) {
          const leaving = holders.slice(6 * (d - 34), 6 * (d - 34) + 6);
          if (d === 35) {
            await script.handBack(leaving.slice(0, 5), opA.address, DUST, t + 3 * HOUR);
            await script.handBack(leaving.slice(5), DEAD, DUST, t + 3 * HOUR); // a holder burns
          } else {
            await script.handBack(leaving, opA.address, DUST, t + 3 * HOUR);
          }
        }
        if (d < LAST_DAY) await script.swap(grace, "buy", USDG(expectedOrganic(d)), t + 4 * HOUR);
        if (d === 10) await script.swap(opA, "buy", USDG(2_000), t + 6 * HOUR); // excluded: not organic

        // An agent posts a snapshot every day; from the wind-down on it is refused, storing nothing.
        appClock = t + 12 * HOUR;
        const leavesBefore = await store.db.selectFrom("merkle_leaves").select("seal").execute();
        const res = await post(
          await sign("Snapshot", snapshot("ada", appClock, String(1e9 + d), "long"), agent),
        );
        if (d < LAST_DAY) {
          expect(res.statusCode, `day ${d}: ${res.body}`).to.equal(201);
        } else {
          expect(res.statusCode, res.body).to.equal(410);
          expect(res.json().error.code).to.equal("WINDING_DOWN");
          expect(res.json().error.message).to.match(
            new RegExp(`^the system is winding down since ${day(36)} `),
          );
          expect(await store.db.selectFrom("merkle_leaves").select("seal").execute()).to.deep.equal(
            leavesBefore,
          );
        }

        // Just past midnight: the night's cycle seals day d, decides the mode, anchors.
        const clock = await script.closeDay(d);
        appClock = clock;
        const report = await runCycle({
          store,
          steps: [anchorStep(chainKeeper), stewardshipStep(source), modesStep()],
          now: () => clock,
        });
        expect(report.stewardshipDays, `day ${d}`).to.deep.equal(d < DAYS_SEALED ? [day(d)] : []);
        modes.push(report.mode!.mode);
        written.push(report.mode!.written);
        if (d === 30) {
          // Maintenance: no new spend from the engine either.
          const refused = await assertMaySpend(store.db, "opening season s9").catch((e: unknown) => e);
          expect((refused as Error).message).to.contain(`maintenance mode since ${day(30)}`);
        }
      }
      expect(modes).to.deep.equal(Array.from({ length: LAST_DAY + 1 }, (_, d) => expectedMode(d)));
      // One record on day 30, one on day 33, wind-down and archived together on day 36's night.
      expect(written).to.deep.equal(
        Array.from({ length: LAST_DAY + 1 }, (_, d) => (d === 36 ? 2 : [30, 33].includes(d) ? 1 : 0)),
      );

      // The sealed stewardship days fire each trigger on the expected day.
      const days = await listStewardshipDays(store.db);
      expect(days.map((r) => r.day)).to.deep.equal(Array.from({ length: DAYS_SEALED }, (_, d) => day(d)));
      const bodies = days.map((r) => r.body);
      const range = (f: (d: number) => unknown) => Array.from({ length: DAYS_SEALED }, (_, d) => f(d));
      expect(bodies.map((b) => b.holders)).to.deep.equal(range(expectedHolders));
      expect(bodies.map((b) => b.organicVolumeUsd)).to.deep.equal(range(expectedOrganic));
      expect(bodies.map((b) => b.state)).to.deep.equal(range(expectedState));
      const firing = (flag: "holdersArmed" | "holdersTrigger" | "volumeTrigger" | "bothTrigger") =>
        bodies.flatMap((b, d) => (b[flag] ? [d] : []));
      expect(firing("holdersArmed")[0]).to.equal(1);
      expect(firing("volumeTrigger")).to.deep.equal([30, 31, 32]);
      expect(firing("holdersTrigger")).to.deep.equal([36]);
      expect(firing("bothTrigger")).to.deep.equal([36]);
      expect(bodies[29]).to.include({ volumeDaysBelow: 29, state: "normal" });
      expect(bodies[35]).to.include({ holdersWindowStart: 120, holders: 108, holdersTrigger: false });
      expect(bodies[36]).to.include({ holdersWindowStart: 120, holders: 102, stateSince: day(36) });
      expect(bodies.every((b) => b.evidence.length === 0)).to.equal(true);
      for (const r of days) expect(seal(r.body), r.day).to.equal(r.seal);

      // The mode records change on exactly those days, each naming its sealed day.
      const sealOf = (d: number) => days[d]!.seal;
      const history = await modeHistory(store.db);
      expect(history.map((m) => [m.mode, m.since, m.declared])).to.deep.equal([
        ["maintenance", day(30), day(31)],
        ["active", day(33), day(34)],
        ["wind-down", day(36), day(37)],
        ["archived", day(37), day(37)],
      ]);
      expect(history.slice(0, 3).map((m) => m.cause)).to.deep.equal([
        { kind: "trigger", trigger: "volume", day: day(30), seal: sealOf(30) },
        { kind: "trigger", trigger: "volume-recovered", day: day(33), seal: sealOf(33) },
        { kind: "trigger", trigger: "both", day: day(36), seal: sealOf(36) },
      ]);
      expect(history.map((m) => m.previous)).to.deep.equal([null, ...history.slice(0, 3).map((m) => m.seal)]);
      // The final anchor covers the whole log up to the wind-down record; the archived record
      // is the leaf right after it, anchored once more; both roots are the registry's.
      const final = history[3]!.cause;
      if (final.kind !== "final-anchor") throw new Error(`archived by ${final.kind}`);
      expect(final.treeSize).to.equal(history[2]!.leafIndex + 1);
      expect(history[3]!.leafIndex).to.equal(final.treeSize);
      expect(await registry.rootOf(final.treeSize)).to.equal(final.root);
      expect((await ethers.provider.getTransaction(final.txHash))!.from).to.equal(keeper.address);
      const last = (await latestAnchor(store.db))!;
      expect(last.tree_size).to.equal(final.treeSize + 1);
      expect(await registry.rootOf(last.tree_size)).to.equal(last.root);

      // The archive: every page with its banner; every stored seal's proof against the registry's root.
      for (const path of sitePages("long", "ada")) {
        const page = await app.inject(path);
        expect(page.statusCode, path).to.equal(200);
        expect(page.body, path).to.contain(`Read-only archive since ${day(37)}`);
      }
      const leaves = 1 + DAYS_SEALED + DAYS_SEALED + 4; // registration, snapshots, stewardship days, modes
      expect(await expectEveryProofOnChain(app, store, registry)).to.equal(leaves);

      // The final receipt: `augur receipt` over the whole range, twice (operators in either
      // order), from the chain alone; the second run saves it for /receipt.
      const toBlock = await ethers.provider.getBlockNumber();
      const receiptRun = async (operators: string[], extra: string[]) => {
        const io = fakeIo();
        const argv = ["receipt", "--from", String(fromBlock), "--to", String(toBlock), "--rpc", rpc.url];
        argv.push("--token", chain.stock.address, "--keeper", keeper.address, "--json", ...extra);
        for (const operator of operators) argv.push("--operator", operator);
        const code = await main(argv, io);
        expect(code, io.err()).to.equal(0);
        return JSON.parse(io.out()) as { seal: string; receipt: ReceiptDocument };
      };
      const first = await receiptRun([opA.address, opB.address], []);
      const savedUrl = process.env.DATABASE_URL;
      delete process.env.DATABASE_URL; // --save goes to --data-dir, the store this app reads
      let second;
      try {
        second = await receiptRun([opB.address, opA.address], ["--save", "--data-dir", dataDir]);
      } finally {
        if (savedUrl !== undefined) process.env.DATABASE_URL = savedUrl;
      }
      expect(second.seal).to.equal(first.seal);
      const token = first.receipt.assets.find((t) => t.asset === chain.stock.address.toLowerCase())!;
      expect({
        spent: token.spent,
        spentBy: token.spentBy,
        burned: token.burned,
        burnedByOperators: token.burnedByOperators,
      }).to.deep.equal({
        spent: TOKENS(120_022_345).toString(),
        spentBy: {
          [opA.address.toLowerCase()]: TOKENS(120_003_000).toString(),
          [opB.address.toLowerCase()]: TOKENS(19_345).toString(),
        },
        burned: TOKENS(2_290_000).toString(),
        burnedByOperators: TOKENS(1_290_000).toString(),
      });
      const keeperGas = first.receipt.gas.filter((g) => g.roles.includes("keeper"));
      expect(keeperGas).to.have.length(chainKeeper.receipts.length);
      expect(keeperGas.reduce((sum, g) => sum + BigInt(g.fee), 0n)).to.equal(chainKeeper.feesWei());
      // A receipt is not a leaf: saving it appends nothing to the archived log.
      expect(await store.db.selectFrom("merkle_leaves").select("seal").execute()).to.have.length(leaves);
      const page = await app.inject("/receipt");
      expect(page.body)
        .to.contain(first.seal)
        .and.to.contain(`Read-only archive since ${day(37)}`);

      // The accounts post one final message and stop: the final notice names the saved receipt
      // and the final anchor, its seal is posted on the registry, and nothing follows it.
      const words = "The flock is archived; thank you for trading with us.";
      const registryAddress = await registry.getAddress();
      const notice = await sealFinalNotice(store, {
        words,
        now: appClock,
        post: registryFinalPoster(keeper, registryAddress),
      });
      expect(notice.body).to.deep.include({ words, receipt: second.seal, archived: history[3]!.seal });
      expect(notice.body.finalAnchor).to.include({ treeSize: last.tree_size, root: last.root });
      expect(await registry.finalNotice()).to.equal(notice.seal);
      const posted = await registry.queryFilter(registry.filters.FinalNotice(notice.seal));
      expect(posted.map((e) => [Number(e.args.lastIndex), Number(e.args.treeSize)])).to.deep.equal([
        [last.anchor_index, last.tree_size],
      ]);
      await expect(registry.connect(keeper).post(last.tree_size + 1, notice.seal, []))
        .to.be.revertedWithCustomError(registry, "AnchorRegistryClosed")
        .withArgs(notice.seal);
      let refused: unknown;
      await runCycle({ store, steps: [anchorStep(chainKeeper)], now: () => appClock }).catch(
        (e: unknown) => (refused = e),
      );
      expect(refused).to.be.instanceOf(FinalNoticeSealedError);
      const write = await app.inject({ method: "POST", url: "/api/v1/records", payload: {} });
      expect([write.statusCode, write.json().error.code]).to.deep.equal([410, "FINAL_NOTICE_SEALED"]);
    } finally {
      await rpc.close();
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
