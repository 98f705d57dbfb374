import { getAddress } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { AnchorRegistry, CallLedger, PriceOracle } from "../typechain-types";
import { readRecord } from "./record";

export class HandoverError extends Error {
  override readonly name = "HandoverError";
}

export interface HandoverState {
  readonly multisig: string;
  readonly oracleOwner: string;
  readonly oraclePendingOwner: string;
  readonly ledgerOwner: string;
  readonly ledgerPendingOwner: string;
  readonly registryAdmins: { readonly admin: boolean; readonly multisig: boolean };
  /** What is left to do, in order, and who must do it. */
  readonly next: readonly string[];
  readonly transactions: number;
}

async function contracts(hre: HardhatRuntimeEnvironment, deploymentsDir?: string) {
  const chainId = Number((await hre.ethers.provider.getNetwork()).chainId);
  const record = readRecord(hre.network.name, chainId, deploymentsDir);
  if (!record.contracts.PriceOracle || !record.contracts.CallLedger || !record.contracts.AnchorRegistry) {
    throw new HandoverError(`no deployment recorded for ${hre.network.name}: deploy first`);
  }
  const [admin] = await hre.ethers.getSigners();
  return {
    admin: admin!,
    oracle: (await hre.ethers.getContractAt(
      "PriceOracle",
      record.contracts.PriceOracle.address,
      admin,
    )) as unknown as PriceOracle,
    ledger: (await hre.ethers.getContractAt(
      "CallLedger",
      record.contracts.CallLedger.address,
      admin,
    )) as unknown as CallLedger,
    registry: (await hre.ethers.getContractAt(
      "AnchorRegistry",
      record.contracts.AnchorRegistry.address,
      admin,
    )) as unknown as AnchorRegistry,
  };
}

/**
 * Moves every admin power from the deploying admin to the multisig, as far as the admin alone
 * can: PriceOracle and CallLedger are Ownable2Step (transferOwnership now, the multisig calls
 * acceptOwnership), AnchorRegistry is AccessControl (the multisig is granted the admin role now;
 * with `finish`, once the multisig owns the other two, the admin renounces its own role there).
 * Idempotent: each run does only what is still missing and reports the rest.
 */
export async function handOver(
  hre: HardhatRuntimeEnvironment,
  multisigAddress: string,
  options: { finish?: boolean; deploymentsDir?: string } = {},
): Promise<HandoverState> {
  const multisig = getAddress(multisigAddress);
  const { admin, oracle, ledger, registry } = await contracts(hre, options.deploymentsDir);
  const adminRole = await registry.DEFAULT_ADMIN_ROLE();
  let transactions = 0;
  const run = async (send: () => Promise<{ wait(): Promise<unknown> }>) => {
    await (await send()).wait();
    transactions += 1;
  };
  for (const contract of [oracle, ledger]) {
    const owner = getAddress(await contract.owner());
    if (owner === multisig) continue;
    if (owner !== admin.address)
      throw new HandoverError(`${await contract.getAddress()} is owned by ${owner}, not by this admin`);
    if (getAddress(await contract.pendingOwner()) !== multisig)
      await run(() => contract.transferOwnership(multisig));
  }
  if (!(await registry.hasRole(adminRole, multisig)))
    await run(() => registry.grantRole(adminRole, multisig));

  const ownedByMultisig =
    getAddress(await oracle.owner()) === multisig && getAddress(await ledger.owner()) === multisig;
  if (options.finish) {
    if (!ownedByMultisig) {
      throw new HandoverError(
        "the multisig has not accepted ownership of PriceOracle and CallLedger yet: finish after it has",
      );
    }
    if (await registry.hasRole(adminRole, admin.address))
      await run(() => registry.renounceRole(adminRole, admin.address));
  }
  const state = {
    oracleOwner: await oracle.owner(),
    oraclePendingOwner: await oracle.pendingOwner(),
    ledgerOwner: await ledger.owner(),
    ledgerPendingOwner: await ledger.pendingOwner(),
    registryAdmins: {
      admin: await registry.hasRole(adminRole, admin.address),
      multisig: await registry.hasRole(adminRole, multisig),
    },
  };
  const next: string[] = [];
  if (getAddress(state.oracleOwner) !== multisig)
    next.push(`multisig: PriceOracle(${await oracle.getAddress()}).acceptOwnership()`);
  if (getAddress(state.ledgerOwner) !== multisig)
    next.push(`multisig: CallLedger(${await ledger.getAddress()}).acceptOwnership()`);
  if (state.registryAdmins.admin)
    next.push("admin: augur:handover --finish (renounces the admin's AnchorRegistry role)");
  return { multisig, ...state, next, transactions };
}
