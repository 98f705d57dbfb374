import {
  Contract,
  getAddress,
  isAddress,
  type BaseContractMethod,
  type ContractTransactionReceipt,
  type ContractTransactionResponse,
  type Signer,
} from "ethers";
import { CALL_LEDGER_ABI, ERC20_ABI, PRICE_ORACLE_ABI } from "./abi";
import { toAgentError } from "./revert";

/** An ethers signer that has a provider (a hardhat-ethers signer, a Wallet connected to one). */
export type ConnectedSigner = Signer & { provider: NonNullable<Signer["provider"]> };

/**
 * What every toolkit operation needs: who signs, which ledger, the chain it is on, and the assets
 * the agent may name by symbol (from the deployment record; addresses work too).
 */
export interface LedgerContext {
  readonly signer: ConnectedSigner;
  readonly agent: string;
  readonly chainId: bigint;
  readonly ledger: Contract;
  readonly oracle: Contract;
  readonly usdg: Contract;
  readonly assets: Readonly<Record<string, string>>;
}

/** Reads the ledger's oracle and USDG and fixes the chain id: one round of calls, then reused. */
export async function connectLedger(
  signer: Signer,
  ledgerAddress: string,
  assets: Readonly<Record<string, string>> = {},
): Promise<LedgerContext> {
  if (!signer.provider) throw new Error("the signer has no provider: connect it to one first");
  const connected = signer as ConnectedSigner;
  const ledger = new Contract(getAddress(ledgerAddress), CALL_LEDGER_ABI, connected);
  const [oracleAddress, usdgAddress, network, agent] = await Promise.all([
    ledger.getFunction("oracle")() as Promise<string>,
    ledger.getFunction("usdg")() as Promise<string>,
    connected.provider.getNetwork(),
    connected.getAddress(),
  ]);
  return {
    signer: connected,
    agent: getAddress(agent),
    chainId: network.chainId,
    ledger,
    oracle: new Contract(oracleAddress, PRICE_ORACLE_ABI, connected),
    usdg: new Contract(usdgAddress, ERC20_ABI, connected),
    assets: Object.fromEntries(
      Object.entries(assets).map(([symbol, address]) => [symbol.toUpperCase(), address]),
    ),
  };
}

/** A symbol known to the context, or an address as given (checked later against the oracle). */
export function assetAddress(context: LedgerContext, asset: string): string | undefined {
  const bySymbol = context.assets[asset.toUpperCase()];
  if (bySymbol) return getAddress(bySymbol);
  return isAddress(asset) ? getAddress(asset) : undefined;
}

export function symbolOf(context: LedgerContext, address: string): string {
  const entry = Object.entries(context.assets).find(([, a]) => a.toLowerCase() === address.toLowerCase());
  return entry ? entry[0] : address;
}

/** The outcome of one transaction the toolkit sent. */
export interface Sent {
  readonly txHash: string;
  readonly blockNumber: number;
  readonly gasUsed: bigint;
}

/**
 * Sends a contract call and waits for it. The call is first estimated (executed against the
 * pending block): one that would revert fails here with its typed error and no transaction is
 * broadcast. Some signers (Hardhat's) send without estimating, so this does not rely on them.
 */
export async function send(
  method: BaseContractMethod,
  args: readonly unknown[],
  hints: { committedBlock?: number; onSent?: (txHash: string) => void } = {},
): Promise<Sent & { receipt: ContractTransactionReceipt }> {
  try {
    const gasLimit = await method.estimateGas(...args);
    const response = (await method(...args, {
      gasLimit: gasLimit + gasLimit / 5n,
    })) as ContractTransactionResponse;
    hints.onSent?.(response.hash);
    const receipt = await response.wait();
    if (!receipt) throw new Error(`transaction ${response.hash} was dropped`);
    return { txHash: response.hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed, receipt };
  } catch (error) {
    throw toAgentError(error, hints);
  }
}
