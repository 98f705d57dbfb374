import { expect } from "chai";
import hre from "hardhat";
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { deployAugur, DeployCheckError, readRecord, recordPath, type DeploymentRecord } from "../../deploy";
import { rejection } from "../shared/rejection";
import { augurOnReplica, hardhatConfig } from "../shared/augur";

/** The fixture's record, copied: a test that re-deploys must not change what the next test reads. */
function copyOfRecords(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), "augur-deployments-"));
  cpSync(from, dir, { recursive: true });
  return dir;
}

/** One whole USDG in base units, from the token's own decimals(). */
async function usdgUnit(usdg: string): Promise<bigint> {
  return 10n ** (await (await hre.ethers.getContractAt("IERC20Metadata", usdg)).decimals());
}

async function nonce(): Promise<number> {
  const [deployer] = await hre.ethers.getSigners();
  return hre.ethers.provider.getTransactionCount(deployer!.address);
}

describe("deploy on the replica", function () {
  it("deploys the four contracts, registers every replica pool and reads each parameter back", async function () {
    const deployment = await loadFixture(augurOnReplica);
    expect(deployment.deployed).to.deep.equal([
      "PriceOracle",
      "CallLedger",
      "AnchorRegistry",
      "OperatorVesting",
    ]);
    const config = hardhatConfig();
    const ledger = await hre.ethers.getContractAt("CallLedger", deployment.callLedger);
    const oracle = await hre.ethers.getContractAt("PriceOracle", deployment.priceOracle);
    // 100 whole USDG at the decimals the USDG on chain reports (6 on the replica), never assumed.
    expect(config.minStake).to.equal("100");
    expect(await ledger.minStake()).to.equal(100n * (await usdgUnit(deployment.usdg)));
    expect(await ledger.oracle()).to.equal(deployment.priceOracle);
    expect(await ledger.consensusQuorum()).to.equal(3n);
    expect(await ledger.thresholdBps()).to.equal(6667n);
    for (const window of config.windows) expect(await ledger.windowAllowed(window)).to.equal(true);
    expect(await oracle.twapWindow()).to.equal(300n);
    expect(await oracle.requiredSpan()).to.equal(BigInt(config.twapWindow + config.settleGrace));
    for (const stock of deployment.replica!.stocks) {
      const [pool] = await oracle.poolOf(stock.address);
      expect(pool).to.equal(stock.poolAddress);
      expect(deployment.assets[stock.symbol]).to.equal(stock.address);
    }
    // Every check names one parameter and all passed.
    const names = deployment.checks.map((c) => c.what);
    expect(names).to.include.members([
      "ledger.minStake",
      "oracle.usdg",
      "oracle.requiredSpan",
      "registry keeper role",
      "ledger.owner",
      "vesting.owner",
      "vesting.duration",
    ]);
    expect(deployment.checks.every((c) => c.ok)).to.equal(true);
  });

  it("models the operator allocation: an OperatorVesting owned by the operator, starting at the first deploy", async function () {
    const deployment = await loadFixture(augurOnReplica);
    const vesting = await hre.ethers.getContractAt("OperatorVesting", deployment.operatorVesting!);
    const record = readRecord("hardhat", 31337, deployment.deploymentsDir).contracts.OperatorVesting!;
    const block = await hre.ethers.provider.getBlock(record.blockNumber);
    // A null operator on a local network is the deployer; a null start is the deploy's block time.
    expect(await vesting.owner()).to.equal(deployment.config.admin);
    expect(await vesting.start()).to.equal(BigInt(record.args[1] as number));
    expect(Number(record.args[1])).to.be.at.most(block!.timestamp);
    expect(await vesting.duration()).to.equal(63_072_000n); // two years, config/deploy.json
  });

  it("records the deployment: address, constructor arguments and bytecode hash per contract", async function () {
    const deployment = await loadFixture(augurOnReplica);
    const path = recordPath("hardhat", deployment.deploymentsDir);
    expect(existsSync(path)).to.equal(true);
    const record = JSON.parse(readFileSync(path, "utf8")) as DeploymentRecord;
    expect(record.chainId).to.equal(31337);
    expect(record.contracts.CallLedger!.address).to.equal(deployment.callLedger);
    expect(record.contracts.CallLedger!.args).to.deep.equal([
      deployment.usdg.toLowerCase(),
      deployment.priceOracle.toLowerCase(),
      (100n * (await usdgUnit(deployment.usdg))).toString(),
      deployment.config.admin.toLowerCase(),
    ]);
    expect(10n ** BigInt(record.usdgDecimals!)).to.equal(await usdgUnit(deployment.usdg));
    expect(record.contracts.AnchorRegistry!.bytecodeHash).to.match(/^0x[0-9a-f]{64}$/);
    expect(record.stocks.map((s) => s.symbol)).to.deep.equal(deployment.replica!.stocks.map((s) => s.symbol));
  });

  it("re-running is a no-op: same addresses, no transaction sent", async function () {
    const first = await loadFixture(augurOnReplica);
    const before = await nonce();
    const again = await deployAugur(hre, {
      replica: first.replica,
      deploymentsDir: copyOfRecords(first.deploymentsDir),
      config: hardhatConfig(),
    });
    expect(again.deployed).to.deep.equal([]);
    expect(again.transactions).to.equal(0);
    expect(await nonce()).to.equal(before);
    expect([again.priceOracle, again.callLedger, again.anchorRegistry]).to.deep.equal([
      first.priceOracle,
      first.callLedger,
      first.anchorRegistry,
    ]);
  });

  it("re-running without the in-process replica re-attaches the recorded one instead of building another", async function () {
    const first = await loadFixture(augurOnReplica);
    const before = await nonce();
    const again = await deployAugur(hre, {
      deploymentsDir: copyOfRecords(first.deploymentsDir),
      config: hardhatConfig(),
    });
    expect(again.transactions).to.equal(0);
    expect(again.usdg).to.equal(first.usdg);
    expect(await nonce()).to.equal(before);
  });

  it("a changed constructor argument redeploys that contract on a local network", async function () {
    const first = await loadFixture(augurOnReplica);
    const config = { ...hardhatConfig(), minStake: "250" };
    const again = await deployAugur(hre, {
      replica: first.replica,
      deploymentsDir: copyOfRecords(first.deploymentsDir),
      config,
    });
    expect(again.deployed).to.deep.equal(["CallLedger"]);
    expect(again.callLedger).to.not.equal(first.callLedger);
    expect(again.priceOracle).to.equal(first.priceOracle);
    const ledger = await hre.ethers.getContractAt("CallLedger", again.callLedger);
    expect(await ledger.minStake()).to.equal(250n * (await usdgUnit(again.usdg)));
  });

  it("converges: a parameter changed on chain is set back by the next run, and only that", async function () {
    const first = await loadFixture(augurOnReplica);
    const ledger = await hre.ethers.getContractAt("CallLedger", first.callLedger);
    await (await ledger.setWindow(3600, false)).wait();
    await (await ledger.setConsensusQuorum(5)).wait();
    const again = await deployAugur(hre, {
      replica: first.replica,
      deploymentsDir: copyOfRecords(first.deploymentsDir),
      config: hardhatConfig(),
    });
    expect(again.transactions).to.equal(2);
    expect(await ledger.windowAllowed(3600)).to.equal(true);
    expect(await ledger.consensusQuorum()).to.equal(3n);
  });

  it("the post-deploy check fails, naming the parameter, when the chain does not hold what was configured", async function () {
    const first = await loadFixture(augurOnReplica);
    // The keeper lost its role: nothing in the deploy grants it back, so the check must catch it.
    const registry = await hre.ethers.getContractAt("AnchorRegistry", first.anchorRegistry);
    await (await registry.revokeRole(await registry.KEEPER_ROLE(), first.config.keeper)).wait();
    const attempt = deployAugur(hre, {
      replica: first.replica,
      deploymentsDir: copyOfRecords(first.deploymentsDir),
      config: hardhatConfig(),
    });
    const error = await rejection(attempt);
    expect(error).to.be.instanceOf(DeployCheckError);
    expect(error.message).to.match(/registry keeper role is false, expected true/);
  });
});
