import { AbiCoder, getAddress, hexlify, keccak256, randomBytes } from "ethers";

/** `ICallLedger.Direction`: the numbers are the Solidity enum's. */
export enum Direction {
  None = 0,
  Up = 1,
  Down = 2,
}

/** The terms an agent commits to; the salt keeps them secret until the reveal. */
export interface CallTerms {
  readonly asset: string;
  /** Seconds; must be on the ledger's allow-list at reveal time. */
  readonly window: number;
  readonly direction: Direction;
  /** Stated probability of being right, 5000–10000 basis points. */
  readonly confidenceBps: number;
  /** 32 random bytes, 0x-hex. */
  readonly salt: string;
}

/** Where the commitment is valid: it binds the chain and the ledger, so it cannot be replayed. */
export interface CommitmentScope {
  readonly chainId: bigint | number;
  readonly ledger: string;
  readonly agent: string;
}

const coder = AbiCoder.defaultAbiCoder();

/**
 * `keccak256(abi.encode(block.chainid, address(ledger), agent, asset, window, direction,
 * confidenceBps, salt))`, exactly as CallLedger recomputes it on reveal.
 */
export function buildCommitment(scope: CommitmentScope, terms: CallTerms): string {
  return keccak256(
    coder.encode(
      ["uint256", "address", "address", "address", "uint32", "uint8", "uint16", "bytes32"],
      [
        BigInt(scope.chainId),
        getAddress(scope.ledger),
        getAddress(scope.agent),
        getAddress(terms.asset),
        terms.window,
        terms.direction,
        terms.confidenceBps,
        terms.salt,
      ],
    ),
  );
}

/** A fresh salt from the operating system's CSPRNG. */
export function randomSalt(): string {
  return hexlify(randomBytes(32));
}

/** `up`/`down` (any case) to the enum; anything else is `None`, which callers refuse. */
export function parseDirection(text: string): Direction {
  const lower = text.trim().toLowerCase();
  if (lower === "up") return Direction.Up;
  if (lower === "down") return Direction.Down;
  return Direction.None;
}

export function directionName(direction: number): "none" | "up" | "down" {
  return direction === Direction.Up ? "up" : direction === Direction.Down ? "down" : "none";
}
