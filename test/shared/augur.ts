import hre from "hardhat";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deployAugur, type AugurDeployment } from "../../deploy";
import { readDeployConfig } from "../../deploy/config";
import { replicaOnce } from "./replica";

/** The launch parameters of `config/deploy.json` for the in-process network. */
export function hardhatConfig() {
  return readDeployConfig("hardhat");
}

/**
 * The replica with Augur ledger deployed on it by the real deploy function, its record in a
 * fresh temporary directory (also exported as AUGUR_DEPLOYMENTS_DIR, where the tasks look).
 * For `loadFixture`: one build per test run, reverted between tests.
 */
export async function augurOnReplica(): Promise<AugurDeployment & { deploymentsDir: string }> {
  const replica = await replicaOnce();
  const deploymentsDir = mkdtempSync(join(tmpdir(), "augur-deployments-"));
  process.env.AUGUR_DEPLOYMENTS_DIR = deploymentsDir;
  const deployment = await deployAugur(hre, { replica, deploymentsDir, config: hardhatConfig() });
  return { ...deployment, deploymentsDir };
}
