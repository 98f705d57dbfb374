import {
  augurDomain,
  BadSignatureError,
  recoverSigner,
  typedDataTypes,
  WalletNotProvenError,
  type NormalizedMessage,
} from "@augur/records";
import { Contract, TypedDataEncoder, type Provider } from "ethers";

/** Asks a contract wallet whether it accepts `signature` for `digest` (EIP-1271). */
export type ContractWalletCheck = (wallet: string, digest: string, signature: string) => Promise<boolean>;

export type WalletProof = "eoa" | "eip1271";

/** EIP-1271's answer for a valid signature: `isValidSignature.selector`. */
const EIP1271_MAGIC = "0x1626ba7e";
const EIP1271_ABI = ["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"];

/** The EIP-1271 check through a JSON-RPC provider; a revert or any other answer is a refusal. */
export function eip1271Check(provider: Provider): ContractWalletCheck {
  return async (wallet, digest, signature) => {
    try {
      const answer = (await new Contract(wallet, EIP1271_ABI, provider).isValidSignature!(
        digest,
        signature,
      )) as string;
      return answer.toLowerCase() === EIP1271_MAGIC;
    } catch {
      return false;
    }
  };
}

/**
 * Proves that the registration's `wallet` consents to holding this agent's book: its own
 * signature of the same typed data (an EOA), or, when that recovers to another address, the
 * wallet contract's EIP-1271 acceptance of it. Refused with WALLET_NOT_PROVEN otherwise.
 */
export async function proveWallet(
  chainId: number,
  message: NormalizedMessage,
  walletSignature: unknown,
  contractWallets: ContractWalletCheck | undefined,
): Promise<WalletProof> {
  const wallet = message.wallet as string;
  let recovered: string;
  try {
    recovered = recoverSigner("walletSignature", "RegistrationV2", chainId, message, walletSignature);
  } catch (error) {
    // A contract wallet's signature need not be 65 bytes: only the contract can judge it.
    if (!(error instanceof BadSignatureError) || typeof walletSignature !== "string") throw error;
    if (!/^0x([0-9a-fA-F]{2}){1,2048}$/.test(walletSignature)) throw error;
    recovered = "(none)";
  }
  if (recovered === wallet) return "eoa";
  const digest = TypedDataEncoder.hash(augurDomain(chainId), typedDataTypes("RegistrationV2"), message);
  if (contractWallets && (await contractWallets(wallet, digest, walletSignature as string))) return "eip1271";
  throw new WalletNotProvenError(wallet, recovered);
}
