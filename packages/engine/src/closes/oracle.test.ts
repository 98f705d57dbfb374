import { expect } from "chai";
import { Contract, Wallet, ZeroAddress } from "ethers";
import { cycleOnce } from "../cli/commands/cycle";
import { openKeeper } from "../keeper/config";
import {
  deployArtifact,
  deployRegistry,
  HARDHAT_KEYS,
  sharedHardhatNode,
  type HardhatNode,
} from "../../test-support/keeper/testing";
import { openStore, type Store } from "../store/open";
import { cacheHourlyCloses } from "./cache";
import { OracleCloses } from "./oracle";
import { HOUR_SECONDS } from "./record";

const H = HOUR_SECONDS;
const ONE = 10n ** 18n;
const A = "0x00000000000000000000000000000000000a0001";
const B = "0x00000000000000000000000000000000000a0002";
const REVOKED = "0x00000000000000000000000000000000000a0003";
const SILENT = "0x00000000000000000000000000000000000a0004";

describe("closes from a PriceOracle on a hardhat node", () => {
  let node: HardhatNode;
  let store: Store;

  before(async () => {
    node = await sharedHardhatNode();
  });
  after(async () => {
    await store?.close();
    await node?.stop();
  });

  it("caches priceAt(asset, hour) of every priced asset, equal to the oracle's own answer; the cycle finds the ledger's oracle", async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    const p = node.provider;
    const startBlock = await p.getBlockNumber();
    const admin = new Wallet(HARDHAT_KEYS[0]).address;
    const usdg = await deployArtifact(p, "test/MockUSDG.sol/MockUSDG.json", []);
    const oracle = await deployArtifact(p, "PriceOracle.sol/PriceOracle.json", [
      await usdg.getAddress(),
      300,
      admin,
    ]);
    const oracleAddress = (await oracle.getAddress()).toLowerCase();
    const send = async (c: Contract, fn: string, ...args: unknown[]) =>
      (await c.getFunction(fn).send(...args)).wait();
    const at = async (timestamp: number) => p.send("evm_setNextBlockTimestamp", [timestamp]);
    await send(oracle, "setMaxStaleness", 86_400);
    for (const asset of [A, B, REVOKED, SILENT]) await send(oracle, "setUpdater", asset, admin);
    await send(oracle, "setUpdater", REVOKED, ZeroAddress);

    const latest = (await p.getBlock("latest"))!.timestamp;
    const h1 = Math.ceil(latest / H) * H + 2 * H;
    await at(h1 - 1800);
    await send(oracle, "pushPrice", A, 100n * ONE);
    await send(oracle, "pushPrice", B, 50n * ONE);
    await at(h1 + 600);
    await send(oracle, "pushPrice", A, 101n * ONE);
    await at(h1 + H - 10);
    await send(oracle, "pushPrice", A, 1025n * (ONE / 10n));
    await at(h1 + 2 * H + 100);
    await send(oracle, "pushPrice", B, 51n * ONE);

    const source = new OracleCloses(p, oracleAddress, 31337, startBlock);
    expect(await source.pairs()).to.deep.equal([A, B, SILENT]); // REVOKED has no updater any more
    expect(await source.twapWindow()).to.equal(300);

    const asOf = h1 + 2 * H; // the cycle of that hour runs 100 s late: the pushes after asOf do not count
    const report = await cacheHourlyCloses(store, source, asOf, asOf + 100);
    const rows = await store.db
      .selectFrom("hourly_closes")
      .selectAll()
      .orderBy("asset")
      .orderBy("at")
      .execute();
    expect(rows.map((r) => [r.asset, Number(r.at) - h1, r.close])).to.deep.equal([
      [A, 0, 100],
      [A, H, 102.5],
      [A, 2 * H, 102.5],
      [B, 0, 50],
      [B, H, 50],
      [B, 2 * H, 50],
    ]);
    expect(report.stored).to.equal(6);
    // The oracle's own answer for each hour, read directly: the cache holds exactly it.
    for (const r of rows) {
      const direct = (await oracle.getFunction("priceAt").staticCall(r.asset, Number(r.at))) as bigint;
      expect(r.price18).to.equal(direct.toString());
      expect(JSON.parse(r.body)).to.include({
        oracle: oracleAddress,
        asset: r.asset,
        price18: direct.toString(),
      });
    }
    // Before the first push: not covered; the asset nobody pushed for: no source. Either ends the
    // backfill: one miss each, no older hour asked about.
    expect(report.missed.map((m) => [m.asset, m.at - h1, m.reason])).to.deep.equal([
      [A, -H, "PriceOracleWindowNotCovered"],
      [B, -H, "PriceOracleWindowNotCovered"],
      [SILENT, 2 * H, "PriceOracleNoSource"],
    ]);
    expect(await source.priceAt(A, asOf + 10 * H)).to.deep.equal({
      missing: "PriceOracleFutureTimestamp",
      earlierToo: false,
    });

    // `augur cycle`'s wiring: with --ledger and no --oracle, the closes come from the ledger's oracle.
    const keeperKey = HARDHAT_KEYS[1];
    const registry = await deployRegistry(p, new Wallet(keeperKey).address);
    const ledger = await deployArtifact(p, "CallLedger.sol/CallLedger.json", [
      await usdg.getAddress(),
      oracleAddress,
      100_000_000n,
      admin,
    ]);
    const chain = await openKeeper(
      {
        rpc: node.url,
        registry,
        ledger: await ledger.getAddress(),
        "start-block": String(startBlock),
        "poll-ms": "20",
      },
      { KEEPER_PRIVATE_KEY: keeperKey },
      store,
      () => undefined,
    );
    try {
      expect(chain.closes?.oracle).to.equal(oracleAddress);
      await at(asOf + H + 5);
      await p.send("evm_mine", []);
      const lines: string[] = [];
      const cycle = await cycleOnce({
        store,
        chain,
        now: () => asOf + H + 5,
        progress: (l) => lines.push(l),
      });
      expect(cycle.closes).to.equal(2); // A and B at the next hour; SILENT still has no price
      expect(lines.join("\n")).to.match(
        /closes: 2 hourly closes sealed .*no price for 1 \(PriceOracleNoSource\)/,
      );
      expect(cycle.anchored?.treeSize).to.equal(8); // this cycle's anchor covers all eight closes
    } finally {
      chain.close();
    }
  });
});
