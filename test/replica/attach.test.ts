import { expect } from "chai";
import { ethers } from "hardhat";
import { getAddress } from "ethers";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import robinhood from "../../config/robinhood.json";
import { attachSurface } from "../../scripts/replica/attach";
import { chainEntry, type ChainEntry } from "../../scripts/replica/chains";
import { announceReplicaMode, deployReplica } from "../shared/replica";

/** The replica's own addresses in the config's format, so the fork path can be exercised offline. */
async function attachedToReplica() {
  const replica = await deployReplica();
  const entry: ChainEntry = {
    name: "replica",
    usdg: await replica.usdg.getAddress(),
    weth: "",
    uniswapV3Factory: await replica.factory.getAddress(),
    stocks: replica.stocks.map((s) => ({ symbol: s.symbol, address: s.address, fee: s.fee })),
  };
  const attached = await attachSurface(entry, replica.chainId);
  return { replica, attached };
}

describe("replica: fork path (config and attaching to existing pools)", function () {
  before(announceReplicaMode);

  it("the config holds only well-formed, checksummed addresses", function () {
    for (const [id, entry] of Object.entries(robinhood.chains) as [string, ChainEntry][]) {
      const addresses = [
        entry.usdg,
        entry.weth,
        entry.uniswapV3Factory,
        ...entry.stocks.map((s) => s.address),
      ];
      for (const address of addresses.filter((a) => a !== "")) {
        expect(getAddress(address), `chain ${id}`).to.equal(address);
      }
    }
  });

  it("refuses a chain whose addresses are not filled in, naming what is missing", function () {
    expect(() => chainEntry(1)).to.throw("no entry for chain 1");
    for (const id of [4663, 46630]) {
      const entry = (robinhood.chains as Record<string, ChainEntry>)[String(id)]!;
      const missing = [
        entry.usdg ? "" : "usdg",
        entry.uniswapV3Factory ? "" : "uniswapV3Factory",
        entry.stocks.length ? "" : "stocks",
      ].filter(Boolean);
      if (missing.length === 0) expect(chainEntry(id).usdg).to.equal(entry.usdg);
      else expect(() => chainEntry(id)).to.throw(missing.join(", "));
    }
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
});
