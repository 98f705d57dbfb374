import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import {
  DeployConfigError,
  readDeployConfig,
  resolveDeployConfig,
  type NetworkDeployConfig,
} from "../../deploy/config";
import { deployOnce, DeployDriftError } from "../../deploy/contract";
import type { DeployContext } from "../../deploy/context";
import { readRecord } from "../../deploy/record";
import { rejection } from "../shared/rejection";
import { augurOnReplica } from "../shared/augur";

const DEPLOYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const SOME = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

function remote(overrides: Partial<NetworkDeployConfig> = {}): NetworkDeployConfig {
  return {
    ...readDeployConfig("robinhood"),
    admin: DEPLOYER,
    keeper: SOME,
    multisig: SOME,
    stocks: [{ symbol: "NVDA", address: SOME, pool: SOME }],
    ...overrides,
  };
}

describe("deploy config", function () {
  it("has an entry for each network of hardhat.config.ts", function () {
    for (const network of ["hardhat", "localhost", "robinhoodTestnet", "robinhood"]) {
      expect(readDeployConfig(network).consensusQuorum, network).to.equal(3);
      expect(readDeployConfig(network).thresholdBps, network).to.equal(6667);
    }
  });

  it("the shipped live entries refuse to deploy until their unknown addresses are filled in", function () {
    expect(() => resolveDeployConfig("robinhood", readDeployConfig("robinhood"), DEPLOYER)).to.throw(
      DeployConfigError,
      /networks\.robinhood\.stocks is empty/,
    );
    expect(() =>
      resolveDeployConfig("robinhoodTestnet", readDeployConfig("robinhoodTestnet"), DEPLOYER),
    ).to.throw(DeployConfigError, /networks\.robinhoodTestnet\.usdg is null/);
  });

  for (const [field, overrides, message] of [
    ["usdg", { usdg: null }, /networks\.robinhood\.usdg is null/],
    ["keeper", { keeper: null }, /networks\.robinhood\.keeper is null/],
    ["multisig", { multisig: null }, /networks\.robinhood\.multisig is null/],
    [
      "stock address",
      { stocks: [{ symbol: "NVDA", address: null, pool: SOME }] },
      /stocks\[0\]\.address is null/,
    ],
    ["stock pool", { stocks: [{ symbol: "NVDA", address: SOME, pool: null }] }, /stocks\[0\]\.pool is null/],
    ["a bad address", { keeper: "0x1234" }, /keeper is not an address/],
    ["threshold", { thresholdBps: 5000 }, /thresholdBps must be an integer from 5001 to 10000/],
    ["windows", { windows: [] }, /windows must list at least one window/],
    ["minStake", { minStake: "0" }, /minStake must be a positive USDG amount as a decimal string, got 0/],
    ["minStake", { minStake: "1e6" }, /minStake must be a positive USDG amount/],
    // twapWindow + settleGrace must fit a pool's observation buffer (at most 65,534 seconds).
    ["settleGrace", { settleGrace: 65_235 }, /settleGrace must be an integer from 0 to 65234/],
    ["twapWindow", { twapWindow: 65_535 }, /twapWindow must be an integer from 1 to 65534/],
    ["replica", { replica: true }, /replica can only be true on hardhat or localhost/],
    [
      "vesting operator",
      { operatorAllocation: { operator: null, start: 1_800_000_000, durationSeconds: 86_400 } },
      /operatorAllocation\.operator is null/,
    ],
    [
      "vesting start",
      { operatorAllocation: { operator: SOME, start: null, durationSeconds: 86_400 } },
      /operatorAllocation\.start must be an integer/,
    ],
    [
      "vesting duration",
      { operatorAllocation: { operator: SOME, start: 1_800_000_000, durationSeconds: 0 } },
      /operatorAllocation\.durationSeconds must be an integer from 1/,
    ],
  ] as const) {
    it(`refuses a live network with a bad ${field}, naming the field`, function () {
      expect(() =>
        resolveDeployConfig("robinhood", remote(overrides as Partial<NetworkDeployConfig>), DEPLOYER),
      ).to.throw(DeployConfigError, message);
    });
  }

  it("refuses an admin that is not the deploying key (configure first, hand over after)", function () {
    expect(() => resolveDeployConfig("robinhood", remote({ admin: SOME }), DEPLOYER)).to.throw(
      DeployConfigError,
      /admin is 0x7099.* but the deploying key is 0xf39F/,
    );
  });

  it("a complete live entry resolves, and local nulls default to the deployer", function () {
    const live = resolveDeployConfig("robinhood", remote(), DEPLOYER);
    expect(live.keeper).to.equal(SOME);
    expect(live.minStake).to.equal("100");
    const local = resolveDeployConfig("hardhat", readDeployConfig("hardhat"), DEPLOYER);
    expect([local.admin, local.keeper, local.multisig]).to.deep.equal([DEPLOYER, DEPLOYER, undefined]);
  });

  it("on a live network a recorded contract that no longer matches is not replaced unless asked", async function () {
    const deployment = await loadFixture(augurOnReplica);
    const [deployer] = await hre.ethers.getSigners();
    const record = readRecord("hardhat", 31337, deployment.deploymentsDir);
    const context = (redeploy: string[]): DeployContext => ({
      hre,
      deployer: deployer!,
      config: { ...deployment.config, network: "robinhood" },
      record,
      redeploy: new Set(redeploy),
      log: () => undefined,
      deployed: [],
      transactions: 0,
      save: () => undefined,
    });
    const changedArgs = [deployment.usdg, deployment.priceOracle, 1n, deployment.config.admin];
    const error = await rejection(deployOnce(context([]), "CallLedger", changedArgs));
    expect(error).to.be.instanceOf(DeployDriftError);
    expect(error.message).to.match(
      /CallLedger at 0x.* no longer matches this deploy \(constructor arguments changed\).*--redeploy CallLedger/,
    );
    const allowed = context(["CallLedger"]);
    const address = await deployOnce(allowed, "CallLedger", changedArgs);
    expect(address).to.not.equal(deployment.callLedger);
    expect(allowed.deployed).to.deep.equal(["CallLedger"]);
  });
});
