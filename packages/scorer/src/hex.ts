/** A 32-byte value written `0x` + 64 lowercase hex digits: seals, Merkle nodes, roots. */
export type Hex32 = `0x${string}`;

const HEX32 = /^0x[0-9a-f]{64}$/;

export function isHex32(value: unknown): value is Hex32 {
  return typeof value === "string" && HEX32.test(value);
}

export function toHex32(bytes: Uint8Array): Hex32 {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

/** The 32 bytes of a Hex32; the caller has validated it. */
export function hex32Bytes(value: Hex32): Buffer {
  return Buffer.from(value.slice(2), "hex");
}
