import { expect } from "chai";
import hre from "hardhat";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  BadArgumentError,
  BadDirectionError,
  ConfidenceOutOfRangeError,
  InsufficientBalanceError,
  NotClosedError,
  NotExpirableYetError,
  RevealTimedOutError,
  SaltNotFoundError,
  StakeBelowMinimumError,
  StakeLockedError,
  UnknownAssetError,
  UnknownCallError,
  WindowNotAllowedError,
  WrongCallStatusError,
} from "@augur/agent";
import { seal } from "@augur/scorer";
import { MockStockToken__factory } from "../../typechain-types";
import { openPool } from "../../scripts/replica/pools";
import { AGENT, agentsOnReplica, expectRefusal, freshVault, OTHER_AGENT, quietly, UNSTAKED } from "./helpers";

const CALL = {
  asset: "NVDA",
  window: "3600",
  direction: "up",
  confidence: "7000",
  account: AGENT,
  json: true,
};

async function committed(vault = freshVault()) {
  const result = (await quietly(() => hre.run("call:commit", { ...CALL, vault }))) as { callId: bigint };
  return { callId: result.callId.toString(), vault };
}

function sealsFile(count: number, from = 0): string {
  const path = join(mkdtempSync(join(tmpdir(), "augur-seals-")), "seals.json");
  writeFileSync(path, JSON.stringify(Array.from({ length: count }, (_, i) => seal({ leaf: from + i }))));
  return path;
}

describe("tasks refuse bad arguments before sending anything", function () {
  describe("call:commit", function () {
    for (const [label, args, type, message] of [
      [
        "an unknown symbol",
        { asset: "AAPL" },
        UnknownAssetError,
        /unknown asset AAPL: use one .*NVDA, TSLA, META/,
      ],
      [
        "an address with no price source",
        { asset: "0x000000000000000000000000000000000000dEaD" },
        UnknownAssetError,
        /unknown asset 0x0+dEaD/,
      ],
      [
        "a window the ledger does not allow",
        { window: "1234" },
        WindowNotAllowedError,
        /window 1234s is not allowed by the ledger: use one of 3600, 14400, 86400 seconds/,
      ],
      [
        "a window that is not a number",
        { window: "1h" },
        BadArgumentError,
        /--window must be a whole number of seconds/,
      ],
      [
        "a confidence below 5000",
        { confidence: "4999" },
        ConfidenceOutOfRangeError,
        /confidence 4999 bps is out of range: give an integer from 5000/,
      ],
      [
        "a confidence above 10000",
        { confidence: "10001" },
        ConfidenceOutOfRangeError,
        /confidence 10001 bps/,
      ],
      [
        "a confidence that is not a number",
        { confidence: "0.7" },
        ConfidenceOutOfRangeError,
        /confidence 0\.7 bps/,
      ],
      [
        "a direction other than up or down",
        { direction: "sideways" },
        BadDirectionError,
        /direction sideways is not valid: say up or down/,
      ],
    ] as const) {
      it(`refuses ${label}`, async function () {
        await loadFixture(agentsOnReplica);
        const vault = freshVault();
        await expectRefusal("call:commit", { ...CALL, vault, ...args }, type, message);
      });
    }

    it("refuses an agent without the minimum stake, saying how much to deposit", async function () {
      await loadFixture(agentsOnReplica);
      await expectRefusal(
        "call:commit",
        { ...CALL, account: UNSTAKED, vault: freshVault() },
        StakeBelowMinimumError,
        /stake 0 is below the minimum 100000000 .* deposit 100000000 more with stake:deposit/,
        UNSTAKED,
      );
    });

    it("refuses without a recorded deployment, saying how to make one", async function () {
      await loadFixture(agentsOnReplica);
      const saved = process.env.AUGUR_DEPLOYMENTS_DIR;
      process.env.AUGUR_DEPLOYMENTS_DIR = mkdtempSync(join(tmpdir(), "augur-empty-"));
      try {
        await expectRefusal(
          "call:commit",
          { ...CALL, vault: freshVault() },
          BadArgumentError,
          /run npx hardhat augur:deploy --network hardhat/,
        );
      } finally {
        process.env.AUGUR_DEPLOYMENTS_DIR = saved;
      }
    });

    it("refuses an account index the node does not have", async function () {
      await loadFixture(agentsOnReplica);
      await expectRefusal(
        "call:commit",
        { ...CALL, account: "99", vault: freshVault() },
        BadArgumentError,
        /--account must be an account index from 0 to 19/,
      );
    });
  });

  describe("call:reveal, call:settle, call:expire, call:status", function () {
    it("refuse a call id that is not a number", async function () {
      await loadFixture(agentsOnReplica);
      for (const task of ["call:reveal", "call:settle", "call:expire", "call:status"]) {
        await expectRefusal(
          task,
          { callId: "latest", account: AGENT, json: true },
          BadArgumentError,
          /--call-id must be a call id/,
        );
      }
    });

    it("call:reveal refuses a call the vault holds no salt for", async function () {
      await loadFixture(agentsOnReplica);
      const { callId } = await committed();
      await expectRefusal(
        "call:reveal",
        { callId, account: AGENT, vault: freshVault(), json: true },
        SaltNotFoundError,
        /no salt for call \d+ in the vault .*: point --vault at the file the commit wrote/,
      );
    });

    it("call:reveal refuses after the reveal deadline, pointing to call:expire", async function () {
      await loadFixture(agentsOnReplica);
      const { callId, vault } = await committed();
      await time.increase(3601);
      await expectRefusal(
        "call:reveal",
        { callId, account: AGENT, vault, json: true },
        RevealTimedOutError,
        /reveal deadline .* has passed: .*call:expire/,
      );
    });

    it("call:reveal refuses a call revealed already", async function () {
      await loadFixture(agentsOnReplica);
      const { callId, vault } = await committed();
      await quietly(() => hre.run("call:reveal", { callId, account: AGENT, vault, json: true }));
      await expectRefusal(
        "call:reveal",
        { callId, account: AGENT, vault, json: true },
        WrongCallStatusError,
        /is revealed, not committed/,
      );
    });

    it("call:settle refuses before the call closes (the contract's revert, caught at gas estimation)", async function () {
      await loadFixture(agentsOnReplica);
      const { callId, vault } = await committed();
      await quietly(() => hre.run("call:reveal", { callId, account: AGENT, vault, json: true }));
      await expectRefusal(
        "call:settle",
        { callId, account: AGENT, vault, json: true },
        NotClosedError,
        /call closes at .*: settle it after that/,
      );
    });

    it("call:settle refuses an unrevealed call, and call:status an unknown one", async function () {
      await loadFixture(agentsOnReplica);
      const { callId, vault } = await committed();
      await expectRefusal(
        "call:settle",
        { callId, account: AGENT, vault, json: true },
        WrongCallStatusError,
        /is committed, not revealed/,
      );
      await expectRefusal(
        "call:status",
        { callId: "12345", account: AGENT, json: true },
        UnknownCallError,
        /no call 12345 on this ledger/,
      );
    });

    it("call:expire refuses while the call can still be revealed", async function () {
      await loadFixture(agentsOnReplica);
      const { callId, vault } = await committed();
      await expectRefusal(
        "call:expire",
        { callId, account: OTHER_AGENT, vault, json: true },
        NotExpirableYetError,
        /can still be revealed until .*: expire it after that/,
        OTHER_AGENT,
      );
    });
  });

  describe("stake:deposit and stake:withdraw", function () {
    it("refuse amounts that are not USDG amounts", async function () {
      await loadFixture(agentsOnReplica);
      for (const amount of ["-5", "ten", "1.1234567", "0"]) {
        for (const task of ["stake:deposit", "stake:withdraw"]) {
          await expectRefusal(task, { amount, account: AGENT, json: true }, BadArgumentError, /--amount /);
        }
      }
    });

    it("stake:deposit refuses more than the balance", async function () {
      await loadFixture(agentsOnReplica);
      await expectRefusal(
        "stake:deposit",
        { amount: "1000000", account: AGENT, json: true },
        InsufficientBalanceError,
        /the USDG balance is \d+, 1000000000000 needed/,
      );
    });

    it("stake:withdraw refuses to take open calls below the minimum stake", async function () {
      await loadFixture(agentsOnReplica);
      await committed();
      await expectRefusal(
        "stake:withdraw",
        { amount: "1", account: AGENT, json: true },
        StakeLockedError,
        /open call\(s\), below the minimum 100000000: settle or expire them first/,
      );
    });
  });

  describe("consensus:show", function () {
    it("refuses an unknown asset and a window the ledger does not allow", async function () {
      await loadFixture(agentsOnReplica);
      await expectRefusal(
        "consensus:show",
        { asset: "GME", window: "3600", json: true },
        UnknownAssetError,
        /unknown asset GME/,
        "0",
      );
      await expectRefusal(
        "consensus:show",
        { asset: "NVDA", window: "60", json: true },
        WindowNotAllowedError,
        /window 60s is not allowed/,
        "0",
      );
    });
  });

  describe("oracle:set-pool and oracle:push", function () {
    it("oracle:set-pool refuses a non-owner, a pool of another pair, and an address without code", async function () {
      const deployment = await loadFixture(agentsOnReplica);
      const nvdaPool = deployment.record.stocks.find((s) => s.symbol === "NVDA")!.pool!;
      const tslaPool = deployment.record.stocks.find((s) => s.symbol === "TSLA")!.pool!;
      await expectRefusal(
        "oracle:set-pool",
        { asset: "NVDA", pool: nvdaPool, account: AGENT, json: true },
        "NotAuthorizedError",
        /is not the oracle owner/,
      );
      await expectRefusal(
        "oracle:set-pool",
        { asset: "NVDA", pool: tslaPool, account: "0", json: true },
        BadArgumentError,
        /--pool trades .*, not the asset against USDG/,
        "0",
      );
      await expectRefusal(
        "oracle:set-pool",
        { asset: "NVDA", pool: "0x000000000000000000000000000000000000dEaD", account: "0", json: true },
        BadArgumentError,
        /--pool has no contract on this network/,
        "0",
      );
      await expectRefusal(
        "oracle:set-pool",
        { asset: "NVDA", pool: nvdaPool, account: "0", json: true },
        BadArgumentError,
        /--asset is already priced by its pool .*: a pool, once set, is never replaced/,
        "0",
      );
      await expectRefusal(
        "oracle:set-pool",
        { asset: "NOPE", pool: nvdaPool, account: "0", json: true },
        UnknownAssetError,
        /unknown asset NOPE/,
        "0",
      );
    });

    it("oracle:set-pool prices an asset from its new pool (owner), once", async function () {
      const deployment = await loadFixture(agentsOnReplica);
      const replica = deployment.replica!;
      const [admin] = await hre.ethers.getSigners();
      const token = await new MockStockToken__factory(admin!).deploy(
        "Newco (replica)",
        "NEW",
        admin!.address,
      );
      const usdg = await replica.usdg.getAddress();
      const address = await token.getAddress();
      const spec = {
        symbol: "NEW",
        name: "Newco (replica)",
        price: "50",
        fee: 3000,
        usdgIsToken0: BigInt(usdg) < BigInt(address),
      };
      const { stock } = await openPool(admin!, replica, token, spec, {
        observationCardinality: 720,
        liquidityUsdg: 1_000_000n * 10n ** 6n,
      });
      const done = (await quietly(() =>
        hre.run("oracle:set-pool", { asset: address, pool: stock.poolAddress, account: "0", json: true }),
      )) as { pool: string };
      expect(done.pool).to.equal(stock.poolAddress);
      await expectRefusal(
        "oracle:set-pool",
        { asset: address, pool: stock.poolAddress, account: "0", json: true },
        BadArgumentError,
        /--asset is already priced by its pool .*: a pool, once set, is never replaced/,
        "0",
      );
    });

    it("oracle:push refuses pooled assets and bad prices", async function () {
      await expectRefusal(
        "oracle:push",
        { asset: "NVDA", price: "180", account: "0", json: true },
        BadArgumentError,
        /--asset is priced by its pool/,
        "0",
      );
      for (const price of ["-1", "0", "abc", "1.0000000000000000001"]) {
        await expectRefusal(
          "oracle:push",
          { asset: "NVDA", price, account: "0", json: true },
          BadArgumentError,
          /--price must be a positive USDG price/,
          "0",
        );
      }
    });

    it("oracle:push works for the named updater of an asset without a pool, and refuses anyone else", async function () {
      const deployment = await loadFixture(agentsOnReplica);
      const [admin, , updater] = await hre.ethers.getSigners();
      const oracle = await hre.ethers.getContractAt("PriceOracle", deployment.priceOracle, admin);
      const asset = await deployment.replica!.usdg.getAddress(); // any token without a pool
      await (await oracle.setUpdater(asset, updater!.address)).wait();
      await expectRefusal(
        "oracle:push",
        { asset, price: "1.5", account: "3", json: true },
        "NotAuthorizedError",
        /is not the price updater/,
        "3",
      );
      await quietly(() => hre.run("oracle:push", { asset, price: "1.5", account: AGENT, json: true }));
      expect(await oracle.price(asset)).to.equal(15n * 10n ** 17n);
    });
  });

  describe("anchor:post", function () {
    it("posts a head once, extends it with a consistency proof, and re-posting sends nothing", async function () {
      const deployment = await loadFixture(agentsOnReplica);
      const first = (await quietly(() =>
        hre.run("anchor:post", { seals: sealsFile(5), account: "0", json: true }),
      )) as { posted: boolean; index: number };
      expect([first.posted, first.index]).to.deep.equal([true, 0]);
      const longer = sealsFile(9);
      const second = (await quietly(() =>
        hre.run("anchor:post", { seals: longer, account: "0", json: true }),
      )) as { posted: boolean; index: number; fromSize: number };
      expect([second.posted, second.index, second.fromSize]).to.deep.equal([true, 1, 5]);
      const registry = await hre.ethers.getContractAt("AnchorRegistry", deployment.anchorRegistry);
      expect((await registry.latest()).treeSize).to.equal(9n);
      const nonce = await hre.ethers.provider.getTransactionCount(deployment.config.keeper);
      const again = (await quietly(() =>
        hre.run("anchor:post", { seals: longer, account: "0", json: true }),
      )) as { posted: boolean };
      expect(again.posted).to.equal(false);
      expect(await hre.ethers.provider.getTransactionCount(deployment.config.keeper)).to.equal(nonce);
      expect(await registry.anchorCount()).to.equal(2n);
    });

    it("refuses a non-keeper, a bad seals file, and seals the posted head is not a prefix of", async function () {
      await loadFixture(agentsOnReplica);
      await expectRefusal(
        "anchor:post",
        { seals: sealsFile(3), account: AGENT, json: true },
        "AgentError",
        /has no KEEPER_ROLE on the registry/,
      );
      const bad = join(mkdtempSync(join(tmpdir(), "augur-seals-")), "bad.txt");
      writeFileSync(bad, "0x1234\n");
      await expectRefusal(
        "anchor:post",
        { seals: bad, account: "0", json: true },
        BadArgumentError,
        /--seals entry 0 is not a seal/,
        "0",
      );
      await expectRefusal(
        "anchor:post",
        { seals: "/nonexistent/seals.json", account: "0", json: true },
        BadArgumentError,
        /--seals cannot be read/,
        "0",
      );
      await quietly(() => hre.run("anchor:post", { seals: sealsFile(4), account: "0", json: true }));
      await expectRefusal(
        "anchor:post",
        { seals: sealsFile(6, 100), account: "0", json: true },
        "ForeignHeadError",
        /is not a prefix of these seals/,
        "0",
      );
    });
  });
});
