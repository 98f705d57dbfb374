import { sha256 } from "../digest";
import { MONKEYS } from "./constants";
import { sha256CounterStream } from "./sha256-counter";

/** Cohort seed = sha256 of the UTF-8 text `OAIA|<epoch>|<agent>`. */
export function cohortSeed(epochText: string, agent: string): Uint8Array {
  return sha256(`OAIA|${epochText}|${agent}`);
}

/** Bytes of the stream that hold the coins of `monkeys` monkeys over `calls` calls. */
export function coinStreamBytes(calls: number, monkeys = MONKEYS): number {
  return Math.ceil((calls * monkeys) / 8);
}

/**
 * The coin stream sha256(seed ‖ uint32be(0)) ‖ sha256(seed ‖ uint32be(1)) ‖ …, long enough
 * for `calls × monkeys` bits, plus one zero byte so 16-bit reads never run off the end.
 */
export function coinStream(seed: Uint8Array, calls: number, monkeys = MONKEYS): Uint8Array {
  const blocks = Math.ceil(coinStreamBytes(calls, monkeys) / 32);
  const out = new Uint8Array(blocks * 32 + 1);
  sha256CounterStream(seed, out, blocks);
  return out;
}

/** Bit `index` of the stream, most significant bit of each byte first; 1 = up. */
export function coinBit(stream: Uint8Array, index: number): 0 | 1 {
  return ((stream[Math.floor(index / 8)]! >>> (7 - (index % 8))) & 1) as 0 | 1;
}

/** The coin of monkey `monkey` on call `call` of a `calls`-call schedule: bit monkey × calls + call. */
export function monkeyCoin(stream: Uint8Array, monkey: number, call: number, calls: number): 0 | 1 {
  return coinBit(stream, monkey * calls + call);
}
