import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { Replica } from "../scripts/replica/types";
import {
  readDeployConfig,
  resolveDeployConfig,
  type NetworkDeployConfig,
  type ResolvedDeployConfig,
} from "./config";
import type { DeployContext, DeployStep } from "./context";
import { checkDeployment, type Check } from "./check";
import { readRecord, writeRecord, type DeploymentRecord } from "./record";
import { replicaStep } from "./00_replica";
import { priceOracleStep } from "./01_price_oracle";
import { callLedgerStep } from "./02_call_ledger";
import { anchorRegistryStep } from "./03_anchor_registry";
import { operatorVestingStep } from "./04_operator_vesting";

export { DeployConfigError, LOCAL_NETWORKS } from "./config";
export { DeployCheckError } from "./check";
export { DeployDriftError } from "./contract";
export { handOver, HandoverError, type HandoverState } from "./handover";
export { readRecord, recordPath, deploymentsDir, type DeploymentRecord } from "./record";

/** The steps, in order: each one's file name says where it runs. */
export const DEPLOY_STEPS: readonly DeployStep[] = [
  replicaStep,
  priceOracleStep,
  callLedgerStep,
  anchorRegistryStep,
  operatorVestingStep,
];

export interface DeployOptions {
  /** Replaces `config/deploy.json`'s entry for this network (tests, `npm start`). */
  readonly config?: NetworkDeployConfig;
  /** A replica built in this process (hardhat network): deployed on instead of building one. */
  readonly replica?: Replica;
  /** Where `<network>.json` is written; AUGUR_DEPLOYMENTS_DIR or `deployments/` by default. */
  readonly deploymentsDir?: string;
  /** Contracts a live network may replace when their record no longer matches. */
  readonly redeploy?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface AugurDeployment {
  readonly network: string;
  readonly chainId: number;
  readonly priceOracle: string;
  readonly callLedger: string;
  readonly anchorRegistry: string;
  /** The operator allocation's vesting contract, when the config names one. */
  readonly operatorVesting?: string;
  readonly usdg: string;
  /** Symbol → token address, for the agent toolkit. */
  readonly assets: Record<string, string>;
  readonly config: ResolvedDeployConfig;
  readonly record: DeploymentRecord;
  readonly replica?: Replica;
  /** Contracts deployed by this run; empty when re-running changed nothing. */
  readonly deployed: readonly string[];
  /** Transactions this run sent (0 on a no-op re-run). */
  readonly transactions: number;
  readonly checks: readonly Check[];
}

/**
 * Deploys and configures PriceOracle, CallLedger, AnchorRegistry (and OperatorVesting where
 * configured) on the current network of
 * `hre`, recording them in `deployments/<network>.json`, then reads every parameter back.
 * Running it again with the same config sends nothing. Plain async function: `npm start` and the
 * tests call it in-process; `npx hardhat augur:deploy` wraps it.
 */
export async function deployAugur(
  hre: HardhatRuntimeEnvironment,
  options: DeployOptions = {},
): Promise<AugurDeployment> {
  const network = hre.network.name;
  const [deployer] = await hre.ethers.getSigners();
  if (!deployer) throw new Error(`no deployer account on ${network}: set DEPLOYER_PRIVATE_KEY`);
  const raw = options.config ?? readDeployConfig(network);
  const config = resolveDeployConfig(network, raw, deployer.address);
  const chainId = Number((await hre.ethers.provider.getNetwork()).chainId);
  const record = readRecord(network, chainId, options.deploymentsDir);
  const log = options.log ?? (() => undefined);
  const context: DeployContext = {
    hre,
    deployer,
    config,
    record,
    redeploy: new Set(options.redeploy ?? []),
    replica: options.replica,
    log,
    deployed: [],
    transactions: 0,
    save: () => writeRecord(record, options.deploymentsDir),
  };
  log(`deploying Augur ledger on ${network} (chain ${chainId}) from ${deployer.address}`);
  for (const step of DEPLOY_STEPS) {
    log(`${step.name}`);
    await step.run(context);
  }
  const checks = await checkDeployment(context);
  log(`check: ${checks.length} parameters read back, all as configured`);
  return {
    network,
    chainId,
    priceOracle: record.contracts.PriceOracle!.address,
    callLedger: record.contracts.CallLedger!.address,
    anchorRegistry: record.contracts.AnchorRegistry!.address,
    operatorVesting: record.contracts.OperatorVesting?.address,
    usdg: record.usdg!,
    assets: Object.fromEntries(record.stocks.map((s) => [s.symbol, s.address])),
    config,
    record,
    replica: context.replica,
    deployed: [...context.deployed],
    transactions: context.transactions,
    checks,
  };
}
