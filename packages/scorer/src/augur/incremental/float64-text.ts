/**
 * A list of doubles as text: the base64 of their IEEE 754 binary64 bits, little-endian, 8 bytes
 * each. Exact for every double (−0, NaN and ±Infinity included), about half the length of their
 * JSON decimals at full precision, and read back without parsing decimals.
 */
export function float64Text(values: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(values.length * 8);
  for (let i = 0; i < values.length; i++) bytes.writeDoubleLE(values[i]!, i * 8);
  return bytes.toString("base64");
}

/** The doubles of `float64Text`; RangeError for a text that is not base64 of whole 8-byte values. */
export function parseFloat64Text(text: string): number[] {
  const bytes = Buffer.from(text, "base64");
  // Buffer skips characters that are not base64: a text of other length is not one float64Text wrote.
  if (bytes.length % 8 !== 0 || text.length !== 4 * Math.ceil(bytes.length / 3))
    throw new RangeError(`not the base64 of float64 values: ${text.slice(0, 32)}`);
  const values = new Array<number>(bytes.length / 8);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readDoubleLE(i * 8);
  return values;
}
