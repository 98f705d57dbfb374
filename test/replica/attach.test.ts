import { expect } from "chai";
import { ethers } from "hardhat";
import { getAddress } from "ethers";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { attachSurface } from "../../scripts/replica/attach";
import {
  DEFAULT_CONFIG_PATH,
  chainEntry,
  missingFields,
  readChainConfig,
  type ChainEntry,
} from "../../scripts/replica/chains";
import { POOL_INIT_CODE_HASH } from "../../scripts/replica/uniswap";
import { announceReplicaMode, replicaOnce } from "../shared/replica";

/** The replica's own addresses in the config's format, so the fork path can be exercised offline. */
async function attachedToReplica() {
  const replica = await replicaOnce();
  const entry: ChainEntry = {
    name: "replica",
    usdg: await replica.usdg.getAddress(),
    weth: "",
    uniswapV3Factory: await replica.factory.getAddress(),
    poolInitCodeHash: POOL_INIT_CODE_HASH,
    stocks: replica.stocks.map((s) => ({ symbol: s.symbol, address: s.address, fee: s.fee })),
  };
  const attached = await attachSurface(entry, replica.chainId);
  return { replica, attached };
}

describe("replica: fork path (config and attaching to existing pools)", function () {
  before(announceReplicaMode);

  const committed = readChainConfig(DEFAULT_CONFIG_PATH);

  it("the config holds only well-formed, checksummed addresses and 32-byte hashes", function () {
    for (const [id, entry] of Object.entries(committed.chains) as [string, ChainEntry][]) {
      const addresses = [
        entry.usdg,
        entry.weth,
        entry.uniswapV3Factory,
        entry.quoterV2 ?? "",
        entry.swapRouter02 ?? "",
        entry.nonfungiblePositionManager ?? "",
        entry.stockFactory ?? "",
        ...entry.stocks.map((s) => s.address),
      ];
      for (const address of addresses.filter((a) => a !== "")) {
        expect(getAddress(address), `chain ${id}`).to.equal(address);
      }
      if (entry.poolInitCodeHash) expect(entry.poolInitCodeHash).to.match(/^0x[0-9a-f]{64}$/);
    }
  });

  it("Robinhood Chain's pool init code hash (Uniswap's record) is the pool bytecode the periphery uses", function () {
    const mainnet = committed.chains["4663"]!;
    expect(mainnet.poolInitCodeHash).to.equal(POOL_INIT_CODE_HASH);
    expect(mainnet.uniswapV3Factory).to.equal("0x1f7d7550B1b028f7571E69A784071F0205FD2EfA");
  });

  it("refuses a chain whose addresses are not filled in, naming what is missing", function () {
    expect(() => chainEntry(1, DEFAULT_CONFIG_PATH)).to.throw("no entry for chain 1");
    // Mainnet has every official address; its stock list is read from the chain, not typed in.
    expect(missingFields(committed.chains["4663"]!)).to.deep.equal(["stocks"]);
    expect(missingFields(committed.chains["46630"]!)).to.deep.equal([
      "usdg",
      "uniswapV3Factory",
      "poolInitCodeHash",
      "stocks",
    ]);
    for (const id of [4663, 46630]) {
      const missing = missingFields(committed.chains[String(id)]!);
      expect(() => chainEntry(id, DEFAULT_CONFIG_PATH)).to.throw(`lacks ${missing.join(", ")}`);
    }
  });

  it("ROBINHOOD_CONFIG selects another file of the same shape", function () {
    const path = join(mkdtempSync(join(tmpdir(), "augur-config-")), "robinhood.json");
    const entry = {
      ...committed.chains["4663"]!,
      stocks: [{ symbol: "X", address: committed.chains["4663"]!.weth, fee: 500 }],
    };
    writeFileSync(path, JSON.stringify({ chains: { "4663": entry } }));
    const before = process.env.ROBINHOOD_CONFIG;
    process.env.ROBINHOOD_CONFIG = path;
    try {
      expect(chainEntry(4663).stocks.map((s) => s.symbol)).to.deep.equal(["X"]);
    } finally {
      if (before === undefined) delete process.env.ROBINHOOD_CONFIG;
      else process.env.ROBINHOOD_CONFIG = before;
    }
    writeFileSync(path, "{");
    expect(() => readChainConfig(path)).to.throw(`cannot read the chain config ${path}`);
  });

  it("finds the same pools, orders and decimals from addresses alone", async function () {
    const { replica, attached } = await loadFixture(attachedToReplica);
    expect(attached.mode).to.equal("fork");
    for (const [i, s] of attached.stocks.entries()) {
      const original = replica.stocks[i]!;
      expect([s.poolAddress, s.usdgIsToken0, s.decimals, s.tickSpacing]).to.deep.equal([
        original.poolAddress,
        original.usdgIsToken0,
        original.decimals,
        original.tickSpacing,
      ]);
      const history = await attached.history(s);
      expect(history.map((e) => e.kind)).to.deep.equal(["attach"]);
      expect(history[0]!.tick).to.equal(Number((await s.pool.slot0()).tick));
    }
  });

  it("borrows balances from the pools and trades through a freshly deployed official router", async function () {
    const { attached } = await loadFixture(attachedToReplica);
    const [, , , , , , agent] = await ethers.getSigners();
    for (const s of attached.stocks) {
      const before = await attached.priceUsdgPerShare(s);
      const poolShares = await s.token.balanceOf(s.poolAddress);
      const result = await attached.swap(s, "buy", 3_000n * 10n ** 6n, { from: agent! });
      expect(await attached.priceUsdgPerShare(s)).to.be.greaterThan(before);
      expect(result.amountOut).to.be.greaterThan(0n);
      // The agent held no USDG: it was borrowed from a pool (impersonated), and the shares came out of this one.
      expect(await s.token.balanceOf(agent!.address)).to.equal(result.amountOut);
      expect(await s.token.balanceOf(s.poolAddress)).to.equal(poolShares - result.amountOut);
    }
    // Asking for more than a pool can spare fails loudly instead of moving its price.
    const failure = await attached.fund(agent!.address, "NVDA", 10n ** 30n).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(failure).to.contain("no pool holds");
  });

  it("refuses pools that are not at the CREATE2 address of the configured init code hash", async function () {
    const { replica } = await loadFixture(attachedToReplica);
    const entry: ChainEntry = {
      name: "replica",
      usdg: await replica.usdg.getAddress(),
      weth: "",
      uniswapV3Factory: await replica.factory.getAddress(),
      poolInitCodeHash: `0x${"11".repeat(32)}`,
      stocks: [{ symbol: "NVDA", address: replica.stock("NVDA").address, fee: replica.stock("NVDA").fee }],
    };
    const failure = await attachSurface(entry, replica.chainId).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(failure).to.contain(`is not Uniswap v3's ${POOL_INIT_CODE_HASH}`);
  });
});
