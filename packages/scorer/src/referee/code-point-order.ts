/**
 * Orders strings by Unicode code point (= UTF-8 byte order), not by UTF-16 unit as `<` does,
 * so Python's default string order and Rust's `str` order agree with ours.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

// Surrogates (U+D800–DFFF) encode code points above U+FFFF, so they sort after U+E000–FFFF.
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
