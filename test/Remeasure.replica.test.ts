import { expect } from "chai";
import { ethers, network } from "hardhat";
import { loadFixture, mine, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  chainReader,
  fieldDifferences,
  measureHour,
  readCarried,
  remeasurer,
  RpcMeasureChain,
  type CarriedState,
  type ChainReader,
  type HourBalances,
  type RemeasureContracts,
} from "@augur/engine";
import type { MeasuredSnapshotBody, MeasuredTradeBody } from "@augur/records";
import { measuredReplica, sourceOf } from "./shared/measured";
import { serveRpc, type RpcBridge } from "./shared/rpcBridge";

/**
 * `augur verify --deep --rpc` re-measurement (issue #16) on the replica: a short measured season of
 * three wallets (trades both ways, a deposit and a withdrawal, an idle wallet), sealed by the
 * engine's measuring with a QuoterV2, is measured again over HTTP JSON-RPC from each record's
 * block and equals every stored field; an altered field, a wrong block hash, a block off the
 * pinned rule or off the chain each fail in one line.
 */
const HOUR = 3600;
const USDG = 10n ** 6n;
type Body = Record<string, unknown>;

async function measuredSeason() {
  const { replica, oracle, quoter } = await loadFixture(measuredReplica);
  const signers = await ethers.getSigners();
  const [alpha, beta, idle, friend, elsewhere] = [
    signers[7]!,
    signers[8]!,
    signers[9]!,
    signers[10]!,
    signers[11]!,
  ];
  const wallets = (
    [
      ["alpha", alpha],
      ["beta", beta],
      ["idle", idle],
    ] as const
  ).map(([agentId, s]) => ({ agentId, wallet: s.address.toLowerCase() }));
  for (const s of [alpha, beta, idle]) await replica.fund(s.address, "USDG", 10_000n * USDG);
  await replica.fund(friend.address, "USDG", 1_000n * USDG);
  const [tsla, other] = [replica.stocks[0]!, replica.stocks[1]!];
  const T0 = Math.ceil(((await time.latest()) + 60) / HOUR) * HOUR;
  await time.increaseTo(T0 + 5);
  const bought = await replica.swap(tsla, "buy", 2_000n * USDG, { from: alpha, at: T0 + 900 });
  await replica.swap(other, "buy", 1_500n * USDG, { from: beta, at: T0 + 1200 });
  await time.increaseTo(T0 + HOUR + 300);
  await (await replica.usdg.connect(friend).transfer(alpha.address, 500n * USDG)).wait();
  await (await replica.usdg.connect(alpha).transfer(elsewhere.address, 100n * USDG)).wait();
  await replica.swap(tsla, "sell", bought.amountOut / 2n, { from: alpha, at: T0 + 2 * HOUR + 600 });
  await time.increaseTo(T0 + 3 * HOUR + 60);
  await mine(1);
  const records: { kind: string; body: Body }[] = [];
  const chain = new RpcMeasureChain(ethers.provider, quoter);
  for (let h = 0; h <= 3; h++) {
    const hour = await measureHour(chain, sourceOf(replica, oracle), "s1", wallets, T0 + h * HOUR);
    expect(hour.skipped).to.deep.equal([]);
    records.push(...hour.records.map((r) => ({ kind: r.kind, body: r.body as unknown as Body })));
  }
  const measure = { replica, chain, source: sourceOf(replica, oracle) };
  return { records, oracle: await oracle.getAddress(), quoter, wallets, measure };
}

describe("augur verify --deep --rpc: re-measurement on the replica", () => {
  let bridge: RpcBridge;
  let reader: ChainReader;
  before(async () => {
    bridge = await serveRpc(network.provider);
    reader = chainReader(bridge.url, { timeoutMs: 60_000 });
  });
  after(async () => bridge.close());

  const differences = (stored: Body, measured: Body) =>
    Object.keys(measured).flatMap((key) => fieldDifferences(key, stored[key], measured[key]));

  it("every snapshot and trade of every agent re-measures to its stored fields over --rpc", async () => {
    const { records, oracle, quoter } = await loadFixture(measuredSeason);
    const remeasure = remeasurer({ oracle, quoter });
    const snapshots = records.filter((r) => r.kind === "snapshot");
    const trades = records.filter((r) => r.kind === "trade");
    expect(snapshots).to.have.length(12); // 3 agents × 4 hours
    expect(trades.map((t) => (t.body as unknown as MeasuredTradeBody).side)).to.deep.equal([
      "buy",
      "buy",
      "sell",
    ]);
    const alphaHour2 = snapshots[6]!.body as unknown as MeasuredSnapshotBody;
    expect(alphaHour2.transfers, "the hour's deposit and withdrawal").to.have.length(2);
    expect(alphaHour2.holdings[0]!.sellQuote, "marked with the quoter").to.be.a("string");
    for (const { body } of records) {
      const measured = await remeasure(body, reader);
      expect(Object.keys(measured).sort()).to.deep.equal(Object.keys(body).sort());
      expect(
        differences(body, measured),
        `${String(body.agentId)} ${String(body.takenAt ?? body.txHash)}`,
      ).to.deep.equal([]);
    }
  });

  it("balances carried from the replica tokens' Transfer logs seal the very records a full balanceOf read sealed", async () => {
    const { records, wallets, measure } = await loadFixture(measuredSeason);
    const hours = [
      ...new Set(records.filter((r) => r.kind === "snapshot").map((r) => Number(r.body.takenAt))),
    ];
    let state: CarriedState | undefined;
    const carried: typeof records = [];
    for (const at of hours) {
      const prior = state;
      const balances: HourBalances = async (block, ws, ts) => {
        const read = await readCarried(measure.chain, prior, block, at, ws, ts);
        expect(read.mismatches, `hour ${at}`).to.deep.equal([]);
        expect(read.fullRead === undefined, `hour ${at} carried`).to.equal(prior !== undefined);
        state = read.state;
        return read;
      };
      const hour = await measureHour(measure.chain, measure.source, "s1", wallets, at, { balances });
      carried.push(...hour.records.map((r) => ({ kind: r.kind, body: r.body as unknown as Body })));
    }
    expect(carried).to.deep.equal(records);
  });

  it("an altered stored field fails naming it; the chain's value stands beside it", async () => {
    const { records, oracle, quoter } = await loadFixture(measuredSeason);
    const remeasure = remeasurer({ oracle, quoter });
    const stored = records.filter((r) => r.kind === "snapshot")[6]!.body as unknown as MeasuredSnapshotBody;
    type Editable = { nav: string; holdings: { balance: string }[]; transfers: unknown[] };
    const altered = (change: (b: Editable) => void) => {
      const copy = structuredClone(stored) as unknown as Editable;
      change(copy);
      return copy as unknown as Body;
    };
    const nav = altered((b) => (b.nav = String(BigInt(b.nav) * 2n)));
    expect(differences(nav, await remeasure(nav, reader))).to.deep.equal([
      `nav: stored "${nav.nav as string}", chain "${stored.nav}"`,
    ]);
    const balance = altered((b) => (b.holdings[0]!.balance = "1"));
    expect(differences(balance, await remeasure(balance, reader))).to.deep.equal([
      `holdings[0].balance: stored "1", chain "${stored.holdings[0]!.balance}"`,
    ]);
    const hidden = altered((b) => b.transfers.splice(0, 1));
    expect(differences(hidden, await remeasure(hidden, reader))[0]).to.match(/^transfers: stored \[/);

    const trade = records.filter((r) => r.kind === "trade")[2]!.body as unknown as MeasuredTradeBody;
    const quantity = { ...trade, quantity: "7" } as unknown as Body;
    expect(differences(quantity, await remeasure(quantity, reader))).to.deep.equal([
      `quantity: stored "7", chain "${trade.quantity}"`,
    ]);
  });

  it("the pooled mark re-measures from its stated total, fails on an altered pooled field, and a record sealed before it re-measures by the old rule", async () => {
    const { records, oracle, quoter, wallets, measure } = await loadFixture(measuredSeason);
    const remeasure = remeasurer({ oracle, quoter });
    // A second holder of alpha's pool buys it up after the season: both are measured together.
    const twin = (await ethers.getSigners())[12]!;
    const { replica } = measure;
    await replica.fund(twin.address, "USDG", 10_000n * USDG);
    const T4 = (records.at(-1)!.body.takenAt as number) + HOUR;
    await replica.swap(replica.stocks[0]!, "buy", 5_000n * USDG, { from: twin, at: T4 - 600 });
    await time.increaseTo(T4 + 60);
    await mine(1);
    const pair = [wallets[0]!, { agentId: "twin", wallet: twin.address.toLowerCase() }];
    const hour = await measureHour(measure.chain, measure.source, "s1", pair, T4);
    const alpha = hour.records.find((r) => r.kind === "snapshot")!.body as unknown as MeasuredSnapshotBody;
    const held = alpha.holdings[0]!;
    expect(BigInt(held.pooled!.balance), "the pool's total holds both").to.be.greaterThan(
      BigInt(held.balance),
    );
    expect(BigInt(held.value), "pooled share below its own quote").to.be.lessThan(BigInt(held.sellQuote!));
    const body = alpha as unknown as Body;
    expect(differences(body, await remeasure(body, reader))).to.deep.equal([]);
    const quote = structuredClone(alpha);
    (quote.holdings[0]!.pooled as { sellQuote: string }).sellQuote = "1";
    expect(
      differences(quote as unknown as Body, await remeasure(quote as unknown as Body, reader)),
    ).to.deep.equal([`holdings[0].pooled.sellQuote: stored "1", chain "${held.pooled!.sellQuote}"`]);
    const total = structuredClone(alpha);
    (total.holdings[0]!.pooled as { balance: string }).balance = held.balance; // as if alone
    const alone = differences(total as unknown as Body, await remeasure(total as unknown as Body, reader));
    expect(alone[0]).to.match(/^holdings\[0\]\.pooled\.sellQuote: stored/);
    // Sealed before the pooled rule (no pooled field): re-measured by the wallet's own quote alone.
    const lone = records.filter((r) => r.kind === "snapshot")[6]!.body as unknown as MeasuredSnapshotBody;
    const old = structuredClone(lone) as unknown as { holdings: Record<string, unknown>[] };
    for (const h of old.holdings) delete h.pooled;
    const reMeasured = await remeasure(old as unknown as Body, reader);
    expect(differences(old as unknown as Body, reMeasured)).to.deep.equal([]);
    expect((reMeasured.holdings as Record<string, unknown>[])[0]).to.not.have.property("pooled");
  });

  it("a wrong block hash, a block off the pinned rule or off the chain, a foreign transaction: one clear line each", async () => {
    const { records, oracle, quoter } = await loadFixture(measuredSeason);
    const stored = records.filter((r) => r.kind === "snapshot")[6]!.body as unknown as MeasuredSnapshotBody;
    const failure = (body: unknown, contracts: RemeasureContracts = { oracle, quoter }) =>
      remeasurer(contracts)(body as Body, reader).then(
        () => expect.fail("re-measured"),
        (error: Error) => error.message,
      );
    const n = stored.block.number;
    const wrongHash = `0x${"ab".repeat(32)}`;
    expect(await failure({ ...stored, block: { ...stored.block, hash: wrongHash } })).to.equal(
      `block ${n} on the --rpc chain has hash ${stored.block.hash}, the record names ${wrongHash}: another chain, or a reorganised block`,
    );
    const earlier = (await ethers.provider.getBlock(n - 1))!;
    expect(
      await failure({
        ...stored,
        block: { number: n - 1, hash: earlier.hash, timestamp: earlier.timestamp },
      }),
    ).to.equal(
      `the pinned block ${n - 1} is not the last block with timestamp ≤ ${stored.takenAt}: block ${n} has ${stored.block.timestamp}`,
    );
    const head = await ethers.provider.getBlockNumber();
    expect(await failure({ ...stored, block: { ...stored.block, number: head + 100 } })).to.equal(
      `block ${head + 100} is not on the --rpc chain (another chain, or a node not synced that far)`,
    );
    expect(await failure(stored, { oracle: undefined, quoter })).to.match(
      /^re-measuring needs --oracle ADDRESS/,
    );
    expect(await failure(stored, { oracle, quoter: undefined })).to.match(/pass --quoter ADDRESS/);
    const trade = records.find((r) => r.kind === "trade")!.body;
    const foreign = `0x${"cd".repeat(32)}`;
    expect(await failure({ ...trade, txHash: foreign })).to.equal(
      `transaction ${foreign} is not on the --rpc chain`,
    );
    expect(await failure({ ...trade, logIndex: 999 })).to.match(
      /^no swap of 0x[0-9a-f]{40} with a listed pool at log 999 of 0x/,
    );
    expect(await failure({ type: "Snapshot", message: {} })).to.match(/^agent-posted/);
  });
});
