// SHA-256 of the 36-byte messages seed ‖ uint32be(counter), written out for speed: every such
// message is one padded block, so no hashing object is built per block (about 3× faster than
// node:crypto one-shot calls here). Checked against node:crypto in sha256-counter.test.ts.

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const H = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The message length in bits (36 bytes), the last word of the padded block. */
const MESSAGE_BITS = 36 * 8;

/**
 * Writes sha256(seed ‖ uint32be(0)) ‖ sha256(seed ‖ uint32be(1)) ‖ … into `out[0 .. 32 × blocks)`.
 * `seed` is 32 bytes.
 */
export function sha256CounterStream(seed: Uint8Array, out: Uint8Array, blocks: number): void {
  if (seed.length !== 32) throw new RangeError("seed must be 32 bytes");
  if (out.length < blocks * 32) throw new RangeError("output too short for the blocks asked");
  // Padded block: words 0–7 the seed, 8 the counter, 9 the end bit, 10–14 zero, 15 the length.
  const w = new Int32Array(64);
  for (let i = 0; i < 8; i++) {
    w[i] = (seed[4 * i]! << 24) | (seed[4 * i + 1]! << 16) | (seed[4 * i + 2]! << 8) | seed[4 * i + 3]!;
  }
  w[9] = 0x80000000 | 0;
  w[15] = MESSAGE_BITS;
  // Rounds 0–7 and schedule words 16–22 never read the counter: compute them once per seed.
  expandSchedule(w, 16, 23);
  const early = Int32Array.from(H);
  compressRounds(early, w, 0, 8);
  const state = new Int32Array(8);
  for (let block = 0; block < blocks; block++) {
    w[8] = block;
    expandSchedule(w, 23, 64);
    state.set(early);
    compressRounds(state, w, 8, 64);
    const o = block * 32;
    for (let i = 0; i < 8; i++) {
      const word = state[i]! + H[i]!;
      out[o + 4 * i] = word >>> 24;
      out[o + 4 * i + 1] = word >>> 16;
      out[o + 4 * i + 2] = word >>> 8;
      out[o + 4 * i + 3] = word;
    }
  }
}

function expandSchedule(w: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const w15 = w[i - 15]!;
    const w2 = w[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
}

/** SHA-256 rounds `from` … `to − 1` applied to the working state a…h in place. */
function compressRounds(state: Int32Array, w: Int32Array, from: number, to: number): void {
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = from; i < to; i++) {
    const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choose = (e & f) ^ (~e & g);
    const t1 = (h + sum1 + choose + K[i]! + w[i]!) | 0;
    const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + sum0 + majority) | 0;
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
  state[4] = e;
  state[5] = f;
  state[6] = g;
  state[7] = h;
}
