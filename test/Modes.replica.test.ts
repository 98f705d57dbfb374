import { expect } from "chai";
import hre, { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { BrowserProvider } from "ethers";
import {
  addDays,
  anchorStep,
  appendModeRecord,
  buildApp,
  checkedDay,
  insertSeason,
  modeHistory,
  modesStep,
  openStore,
  readReceipt,
  runCycle,
} from "@augur/engine";
import {
  referenceHistory,
  registration,
  scriptedDays,
  sign,
  sitePages,
  snapshot,
  testWallet,
} from "@augur/engine/test-support";
import { expectEveryProofOnChain, RegistryKeeper } from "./shared/anchoring";
import { announceReplicaMode } from "./shared/replica";
import { receiptScene } from "./shared/receipt";

/**
 * Maintenance, wind-down and the final receipt on the replica (hardhat network): a scripted
 * stewardship history drives the engine's mode; the keeper anchors every head in a real
 * AnchorRegistry; operator wallets spend and burn a replica stock token on chain; the receipt
 * rebuilt from the chain alone must total exactly what was scripted, with a stable seal.
 */
const START = "2027-01-15";
const dayN = (n: number) => addDays(START, n);
const noonOf = (n: number) => checkedDay(dayN(n), "day") * 86_400 + 12 * 3600;
const DEAD = "0x000000000000000000000000000000000000dEaD";
const WHOLE = 10n ** 18n;

describe("modes on the replica: maintenance, wind-down, archive and the final receipt", function () {
  this.timeout(300_000);
  before(() => announceReplicaMode());

  it("follows the days, refuses writes in wind-down, archives with every proof, and receipts the spends", async () => {
    const { replica, stock, registry, keeper, opA, opB, alice, bob } = await loadFixture(receiptScene);
    const opToken = stock.token.connect(opA);
    const fromBlock = (await ethers.provider.getBlockNumber()) + 1;
    await replica.fund(opA.address, stock, 1_000n * WHOLE);
    await replica.fund(opB.address, stock, 1_000n * WHOLE);
    await replica.fund(alice.address, stock, 10n * WHOLE);

    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    let clock = noonOf(0);
    const app = await buildApp({ store, chainId: 31337, now: () => clock }, { writesPerMinute: 1_000_000 });
    try {
      await insertSeason(store.db, {
        id: "long",
        name: "Long season",
        starts_at: noonOf(0) - 12 * 3600,
        ends_at: noonOf(0) + 100 * 86_400,
        closed_at: null,
        created_at: noonOf(0) - 86_400,
      });
      const agent = testWallet("agent ada");
      const creator = testWallet("creator of ada");
      const post = async (body: unknown) =>
        app.inject({ method: "POST", url: "/api/v1/records", payload: body as object });
      const reg = { ...registration("ada", agent, creator, "long"), registeredAt: clock };
      expect((await post(await sign("Registration", reg, agent, creator))).statusCode).to.equal(201);

      const days = scriptedDays(referenceHistory(), START);
      const chainKeeper = new RegistryKeeper(store, registry);
      // The operators' scripted spends and burns, on the days they happen.
      const spends: Record<number, () => Promise<unknown>> = {
        3: async () => (await opToken.transfer(alice.address, 120n * WHOLE)).wait(),
        20: async () => (await stock.token.connect(opB).transfer(bob.address, 35n * WHOLE)).wait(),
        // Operator to operator: an internal move, neither spent nor burned.
        30: async () => (await opToken.transfer(opB.address, 50n * WHOLE)).wait(),
        50: async () => (await opToken.transfer(DEAD, 200n * WHOLE)).wait(),
        // A holder's own burn counts as burned, not as the operators'.
        60: async () => (await stock.token.connect(alice).transfer(DEAD, 7n * WHOLE)).wait(),
        72: async () => (await stock.token.connect(opB).transfer(DEAD, 65n * WHOLE)).wait(),
      };
      const modes: string[] = [];
      for (let d = 0; d < 75; d += 1) {
        clock = noonOf(d);
        await spends[d]?.();
        const res = await post(
          await sign("Snapshot", snapshot("ada", clock, String(1e9 + d), "long"), agent),
        );
        expect(res.statusCode, `day ${d}: ${res.body}`).to.equal(d <= 70 ? 201 : 410);
        if (d > 70)
          expect(res.json().error.message).to.match(
            new RegExp(`^the system is winding down since ${dayN(70)}`),
          );
        const report = await runCycle({
          store,
          steps: [anchorStep(chainKeeper), modesStep(async () => days.slice(0, d + 1))],
          now: () => clock,
        });
        modes.push(report.mode!.mode);
      }
      // Wind-down is declared on day 70 and, the keeper anchoring at once, archived the same day.
      const expected = (d: number) =>
        d < 39 ? "active" : d < 45 ? "maintenance" : d < 70 ? "active" : "archived";
      expect(modes).to.deep.equal(Array.from({ length: 75 }, (_, d) => expected(d)));
      expect((await modeHistory(store.db)).map((m) => [m.mode, m.since])).to.deep.equal([
        ["maintenance", dayN(39)],
        ["active", dayN(45)],
        ["wind-down", dayN(70)],
        ["archived", dayN(70)],
      ]);

      // The archive: every page with its banner, every proof checked against the root on chain.
      for (const path of sitePages("long", "ada")) {
        const page = await app.inject(path);
        expect(page.statusCode, path).to.equal(200);
        expect(page.body, path).to.contain(`Read-only archive since ${dayN(70)}`);
      }
      // registration, snapshots of days 0–70, 4 modes
      expect(await expectEveryProofOnChain(app, store, registry)).to.equal(1 + 71 + 4);

      // The final receipt, from the chain alone, twice.
      const provider = new BrowserProvider(hre.network.provider);
      const toBlock = await ethers.provider.getBlockNumber();
      const args = {
        fromBlock,
        toBlock,
        token: stock.address,
        operators: [opB.address, opA.address],
        keeper: keeper.address,
      };
      const first = await readReceipt(provider, args);
      const second = await readReceipt(provider, { ...args, operators: [opA.address, opB.address] });
      expect(second.seal).to.equal(first.seal);
      const token = first.receipt.assets.find((t) => t.asset === stock.address.toLowerCase())!;
      expect(token.spent).to.equal((155n * WHOLE).toString());
      expect(token.spentBy).to.deep.equal({
        [opA.address.toLowerCase()]: (120n * WHOLE).toString(),
        [opB.address.toLowerCase()]: (35n * WHOLE).toString(),
      });
      expect(token.burned).to.equal((272n * WHOLE).toString());
      expect(token.burnedByOperators).to.equal((265n * WHOLE).toString());
      const fees = chainKeeper.feesWei();
      const keeperGas = first.receipt.gas.filter((g) => g.roles.includes("keeper"));
      expect(keeperGas).to.have.length(chainKeeper.receipts.length);
      expect(keeperGas.reduce((sum, g) => sum + BigInt(g.fee), 0n)).to.equal(fees);
      expect(fees > 0n).to.equal(true);
      // Saved, it is the /receipt page; the archive still refuses every write.
      await store.db
        .transaction()
        .execute((trx) =>
          appendModeRecord(trx, { kind: "receipt", day: dayN(74), body: first.receipt }, clock),
        );
      const page = await app.inject("/receipt");
      expect(page.body).to.contain(first.seal).and.to.contain(`<td class="num">${token.spent}</td>`);
      expect((await app.inject({ method: "POST", url: "/api/v1/records", payload: {} })).statusCode).to.equal(
        410,
      );
    } finally {
      await app.close();
      await store.close();
    }
  });
});
