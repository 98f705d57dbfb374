import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Wallet, type Signer } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { BadArgumentError, connectLedger, SaltVault, type LedgerContext } from "@augur/agent";
import { LOCAL_NETWORKS } from "../../deploy/config";
import { readRecord, recordPath, type DeploymentRecord } from "../../deploy/record";

/**
 * Whose key signs. From the environment (`<ROLE>_PRIVATE_KEY`, or `<ROLE>_KEYSTORE` +
 * `<ROLE>_KEYSTORE_PASSWORD` for an encrypted JSON keystore); on a local network, without either,
 * one of the node's unlocked accounts (`--account <index>`). Keys never come from a file in the repo.
 */
export async function roleSigner(
  hre: HardhatRuntimeEnvironment,
  role: "AGENT" | "DEPLOYER" | "KEEPER" | "OPERATOR" | "UPDATER",
  account?: string,
): Promise<Signer> {
  const key = process.env[`${role}_PRIVATE_KEY`];
  const keystore = process.env[`${role}_KEYSTORE`];
  if (key) return new Wallet(key, hre.ethers.provider);
  if (keystore) {
    const password = process.env[`${role}_KEYSTORE_PASSWORD`];
    if (password === undefined)
      throw new BadArgumentError("keystore", `needs ${role}_KEYSTORE_PASSWORD in the environment`);
    return (await Wallet.fromEncryptedJson(readFileSync(keystore, "utf8"), password)).connect(
      hre.ethers.provider,
    );
  }
  if (!LOCAL_NETWORKS.has(hre.network.name)) {
    throw new BadArgumentError(
      "account",
      `cannot be used on ${hre.network.name}: set ${role}_PRIVATE_KEY or ${role}_KEYSTORE`,
    );
  }
  const index = account === undefined ? 0 : Number(account);
  const signers = await hre.ethers.getSigners();
  const signer = Number.isInteger(index) ? signers[index] : undefined;
  if (!signer)
    throw new BadArgumentError(
      "account",
      `must be an account index from 0 to ${signers.length - 1}`,
      account,
    );
  return signer;
}

/** The recorded deployment of the current network, or a refusal saying how to make one. */
export async function loadDeployment(hre: HardhatRuntimeEnvironment): Promise<DeploymentRecord> {
  const chainId = Number((await hre.ethers.provider.getNetwork()).chainId);
  const record = readRecord(hre.network.name, chainId);
  if (!record.contracts.CallLedger || !record.contracts.PriceOracle || !record.contracts.AnchorRegistry) {
    throw new BadArgumentError(
      "network",
      `${hre.network.name}: no deployment recorded in ${recordPath(hre.network.name)}: run npx hardhat augur:deploy --network ${hre.network.name}`,
    );
  }
  return record;
}

export function assetsOf(record: DeploymentRecord): Record<string, string> {
  return Object.fromEntries(record.stocks.map((s) => [s.symbol, s.address]));
}

/** The agent's ledger context on the current network. */
export async function agentContext(hre: HardhatRuntimeEnvironment, account?: string): Promise<LedgerContext> {
  const record = await loadDeployment(hre);
  const signer = await roleSigner(hre, "AGENT", account);
  return connectLedger(signer, record.contracts.CallLedger!.address, assetsOf(record));
}

/**
 * The salt vault: `--vault`, else AUGUR_VAULT, else `.data/vault/<network>-<agent>.json` (git-ignored).
 * AUGUR_VAULT_PASSPHRASE, when set, encrypts it.
 */
export function openVault(hre: HardhatRuntimeEnvironment, agent: string, path?: string): SaltVault {
  const file =
    path ??
    process.env.AUGUR_VAULT ??
    join(hre.config.paths.root, ".data", "vault", `${hre.network.name}-${agent.toLowerCase()}.json`);
  return SaltVault.open(file, process.env.AUGUR_VAULT_PASSPHRASE || undefined);
}

/** A call id as given on the command line (decimal or 0x hex), or a refusal. */
export function parseCallId(text: string | undefined): bigint {
  if (text === undefined || !/^(0x[0-9a-fA-F]+|\d+)$/.test(text.trim())) {
    throw new BadArgumentError("call-id", "must be a call id (decimal, as call:commit printed it)", text);
  }
  return BigInt(text.trim());
}
