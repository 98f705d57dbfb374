import {
  BadSignatureError,
  recoverSigner,
  typedDataDigest,
  WalletNotProvenError,
  type NormalizedMessage,
} from "@augur/records";
import { Contract, type Provider } from "ethers";

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
 * The address a RegistrationV2's `walletSignature` recovers to, or "(none)" for a signature only
 * a contract wallet could judge (not 65 bytes, or recovering to nothing). Pure: no chain.
 */
export function recoverWallet(chainId: number, message: NormalizedMessage, walletSignature: unknown): string {
  try {
    return recoverSigner("walletSignature", "RegistrationV2", chainId, message, walletSignature);
  } catch (error) {
    // A contract wallet's signature need not be 65 bytes: only the contract can judge it.
    if (!(error instanceof BadSignatureError) || typeof walletSignature !== "string") throw error;
    if (!/^0x([0-9a-fA-F]{2}){1,2048}$/.test(walletSignature)) throw error;
    return "(none)";
  }
}

/**
 * The second half of `proveWallet`, given what the signature recovered to: an EOA's own
 * signature, else the wallet contract's EIP-1271 acceptance. Refused with WALLET_NOT_PROVEN.
 */
export async function confirmWallet(
  chainId: number,
  message: NormalizedMessage,
  walletSignature: string,
  recovered: string,
  contractWallets: ContractWalletCheck | undefined,
): Promise<WalletProof> {
  const wallet = message.wallet as string;
  if (recovered === wallet) return "eoa";
  const digest = typedDataDigest(chainId, "RegistrationV2", message);
  if (contractWallets && (await contractWallets(wallet, digest, walletSignature))) return "eip1271";
  throw new WalletNotProvenError(wallet, recovered);
}
