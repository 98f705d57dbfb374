import { InvalidInputError } from "@augur/scorer";
import { getAddress } from "ethers";
import { SIGNED_FIELDS, ZERO_HASH, type FieldSpec, type SignedTypeName } from "./fields";

/** A message after validation: addresses and hashes lowercase, 256-bit integers as decimal text. */
export type NormalizedMessage = Readonly<Record<string, string | number>>;

const UINT256_MAX = 2n ** 256n - 1n;
const INT256_MIN = -(2n ** 255n);
const INT256_MAX = 2n ** 255n - 1n;
const UINT_TEXT = /^(0|[1-9][0-9]{0,77})$/;
const INT_TEXT = /^(0|-?[1-9][0-9]{0,76})$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

function field(spec: FieldSpec, value: unknown, path: string): string | number {
  switch (spec.type) {
    case "string": {
      if (typeof value !== "string") throw new InvalidInputError(path, "must be a string");
      if (spec.enum && !spec.enum.includes(value)) {
        throw new InvalidInputError(path, `must be one of ${spec.enum.join(", ")}`);
      }
      if (spec.maxLength !== undefined && [...value].length > spec.maxLength) {
        throw new InvalidInputError(path, `must be at most ${spec.maxLength} characters`);
      }
      if (spec.pattern && !new RegExp(spec.pattern).test(value)) {
        throw new InvalidInputError(path, `must match ${spec.pattern}`);
      }
      return value;
    }
    case "address": {
      if (typeof value !== "string" || !ADDRESS.test(value)) {
        throw new InvalidInputError(path, "must be an address (0x + 40 hex digits)");
      }
      try {
        return getAddress(value).toLowerCase(); // mixed case must carry a valid checksum
      } catch {
        throw new InvalidInputError(path, "has a bad EIP-55 checksum");
      }
    }
    case "bytes32":
      if (typeof value !== "string" || !BYTES32.test(value)) {
        throw new InvalidInputError(path, "must be 0x + 64 hex digits");
      }
      return value.toLowerCase();
    case "uint16":
    case "uint64": {
      const max = spec.maximum ?? (spec.type === "uint16" ? 65535 : Number.MAX_SAFE_INTEGER);
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > max) {
        throw new InvalidInputError(path, `must be an integer from 0 to ${max}`);
      }
      return value;
    }
    case "uint256": {
      if (typeof value !== "string" || !UINT_TEXT.test(value) || BigInt(value) > UINT256_MAX) {
        throw new InvalidInputError(
          path,
          "must be a decimal string of a uint256 (no sign, no leading zeros)",
        );
      }
      return value;
    }
    case "int256": {
      const big = typeof value === "string" && INT_TEXT.test(value) ? BigInt(value) : undefined;
      if (big === undefined || big < INT256_MIN || big > INT256_MAX) {
        throw new InvalidInputError(path, "must be a decimal string of an int256 (no leading zeros)");
      }
      return value as string;
    }
  }
}

/** Checks every field of a message (no missing, no extra) and returns its normal form. */
export function normalizeMessage(type: SignedTypeName, message: unknown): NormalizedMessage {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    throw new InvalidInputError("message", "must be an object");
  }
  const specs = SIGNED_FIELDS[type];
  const input = message as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!specs.some((s) => s.name === key))
      throw new InvalidInputError(`message.${key}`, `is not a ${type} field`);
  }
  const out: Record<string, string | number> = {};
  for (const spec of specs) {
    if (!Object.prototype.hasOwnProperty.call(input, spec.name)) {
      throw new InvalidInputError(`message.${spec.name}`, "is required");
    }
    out[spec.name] = field(spec, input[spec.name], `message.${spec.name}`);
  }
  const namesTrade = type === "DecisionV2" || (type === "DecisionV3" && out.txHash !== ZERO_HASH);
  if (namesTrade && out.action !== "buy" && out.action !== "sell") {
    throw new InvalidInputError(
      "message.txHash",
      `names a trade: only a buy or sell decision carries one (action is ${String(out.action)})`,
    );
  }
  return out;
}
