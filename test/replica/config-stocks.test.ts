import { expect } from "chai";
import { ethers } from "hardhat";
import { spawnSync } from "node:child_process";
import { ZeroAddress } from "ethers";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { MockStockToken__factory } from "../../typechain-types";
import { readStockListing } from "../../scripts/stocks/listing";
import { parseStocksOptions, STOCKS_HELP, StocksUsageError } from "../../scripts/stocks/options";
import { announceReplicaMode, buildReplica } from "../shared/replica";

/** The replica (its stocks come from MockStockFactory), plus a factory token with no pool and an empty pool. */
async function listedReplica() {
  const replica = await buildReplica({ hours: 1 });
  const factory = await ethers.getContractAt("MockStockFactory", replica.stockFactory);
  const init = (
    await new MockStockToken__factory().getDeployTransaction("Unlisted", "NOPL", replica.deployer.address)
  ).data;
  await (await factory.deploy(ethers.id("NOPL"), init)).wait();
  // A second NVDA pool at another fee tier holding no USDG: the deep one must win.
  await (
    await replica.factory.createPool(await replica.usdg.getAddress(), replica.stock("NVDA").address, 10000)
  ).wait();
  return replica;
}

function configStocks(...args: string[]) {
  return spawnSync("npx", ["tsx", "scripts/config-stocks.ts", ...args], { encoding: "utf8" });
}

describe("config:stocks: the stock list read from the chain", function () {
  before(announceReplicaMode);

  it("lists every token the stock factory deployed, its decimals and its deepest USDG pool, at one block", async function () {
    const replica = await loadFixture(listedReplica);
    const sources = {
      stockFactory: replica.stockFactory,
      usdg: await replica.usdg.getAddress(),
      uniswapV3Factory: await replica.factory.getAddress(),
      fromBlock: 0,
    };
    const listing = await readStockListing(ethers.provider, sources);
    expect(listing.chainId).to.equal(replica.chainId);
    expect(listing.readAt.block).to.equal(await ethers.provider.getBlockNumber());
    expect(listing.stocks.map((s) => [s.symbol, s.address, s.decimals, s.fee, s.pool])).to.deep.equal(
      replica.stocks.map((s) => [s.symbol, s.address, s.decimals, s.fee, s.poolAddress]),
    );
    expect(listing.withoutPool.map((s) => [s.symbol, s.decimals])).to.deep.equal([["NOPL", 18]]);
    // Requests of a few blocks each read the same list.
    const chunked = await readStockListing(ethers.provider, { ...sources, chunk: 7 });
    expect(chunked.stocks).to.deep.equal(listing.stocks);
    // A later first block skips what was deployed before it.
    const late = await readStockListing(ethers.provider, { ...sources, fromBlock: listing.readAt.block });
    expect(late.stocks).to.deep.equal([]);
    // An address without code is refused by name.
    const failure = await readStockListing(ethers.provider, {
      ...sources,
      stockFactory: replica.trader.address,
    }).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(failure).to.contain(`no contract at the stock factory address ${replica.trader.address}`);
  });

  it("validates its flags, each mistake in one line", function () {
    const ok = parseStocksOptions([
      "--rpc",
      "https://rpc.example",
      "--from-block",
      "12",
      "--factory",
      ZeroAddress,
    ]);
    expect([ok.rpc, ok.fromBlock, ok.factory, ok.out]).to.deep.equal([
      "https://rpc.example",
      12,
      ZeroAddress,
      undefined,
    ]);
    expect(parseStocksOptions(["--help"]).help).to.equal(true);
    for (const [args, message] of [
      [[], "--rpc <url> is required"],
      [["--rpc", "localhost:8545"], "--rpc must be an http(s) or ws(s) URL"],
      [["--rpc", "http://127.0.0.1:1", "--factory", "0x12"], "--factory must be an address"],
      [["--rpc", "http://127.0.0.1:1", "--from-block", "1.5"], "--from-block must be a whole block number"],
      [["--rpc", "http://127.0.0.1:1", "--from-block", "-3"], "argument is ambiguous"],
      [["--rpc", "http://127.0.0.1:1", "--out", ""], "--out must name a file"],
      [["--rpc", "http://127.0.0.1:1", "--bogus"], "Unknown option '--bogus'"],
    ] as const) {
      expect(() => parseStocksOptions(args), args.join(" "))
        .to.throw(StocksUsageError, message)
        .with.property("message")
        .that.does.not.contain("\n");
    }
  });

  it("the command: --help, exit 2 on a bad flag and 1 on an unreachable chain, one line each", function () {
    const help = configStocks("--help");
    expect(help.status).to.equal(0);
    expect(help.stdout).to.equal(STOCKS_HELP);
    const bad = configStocks("--rpc", "http://127.0.0.1:1", "--from-block", "-3");
    expect([bad.status, bad.stderr.trim().split("\n").length]).to.deep.equal([2, 1]);
    expect(bad.stderr).to.match(
      /^config:stocks: Option '--from-block' argument is ambiguous\. \(see --help\)/,
    );
    const down = configStocks("--rpc", "http://127.0.0.1:1");
    expect([down.status, down.stderr.trim().split("\n").length]).to.deep.equal([1, 1]);
    expect(down.stderr).to.match(/^config:stocks: /);
  });
});
