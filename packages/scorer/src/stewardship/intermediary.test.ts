import { expect } from "chai";
import type { PoolSwap, TokenTransfer } from "./chain-data";
import { intermediaryTrades } from "./intermediary";

const addr = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(40, "0")}`;
const POOL = addr("pool");
const H = 3600;
let n = 0;
const tx = () => `0x${(++n).toString(16).padStart(64, "0")}`;
const swap = (taker: string, side: "buy" | "sell", time: number): PoolSwap => ({
  tx: tx(),
  logIndex: 1,
  time,
  pool: POOL,
  taker: addr(taker),
  side,
  tokens: 100n,
  usd: 1,
});
const send = (from: string, to: string, time: number): TokenTransfer => ({
  tx: tx(),
  logIndex: 0,
  time,
  from: addr(from),
  to: addr(to),
  amount: 100n,
});

/** A buy by "b0", then a chain b0 → b1 → … → b{hops}, one hour apart, and a sale by the last. */
function chain(hops: number, sellAt: number) {
  const swaps = [swap("b0", "buy", 0)];
  const transfers = Array.from({ length: hops }, (_, i) => send(`b${i}`, `b${i + 1}`, (i + 1) * H));
  swaps.push(swap(`b${hops}`, "sell", sellAt));
  return { swaps, transfers };
}

describe("stewardship (a): self-trading through an intermediary", () => {
  it("follows the tokens through up to 3 plain transfers", () => {
    for (const hops of [1, 2, 3]) {
      const { swaps, transfers } = chain(hops, 10 * H);
      const [trade] = intermediaryTrades(swaps, transfers, new Set([POOL]));
      expect(trade!.path, `${hops} hops`).to.deep.equal(
        Array.from({ length: hops + 1 }, (_, i) => addr(`b${i}`)),
      );
      expect(trade!.sells).to.have.length(1);
    }
    const { swaps, transfers } = chain(4, 10 * H);
    expect(intermediaryTrades(swaps, transfers, new Set([POOL]))).to.deep.equal([]);
  });

  it("needs the sale within 24 h of the buy, and after the tokens arrived", () => {
    const late = chain(1, 24 * H + 1);
    expect(intermediaryTrades(late.swaps, late.transfers, new Set([POOL]))).to.deep.equal([]);
    const early = chain(1, H / 2); // sold before the transfer reached the seller
    expect(intermediaryTrades(early.swaps, early.transfers, new Set([POOL]))).to.deep.equal([]);
  });

  it("never routes through an excluded address", () => {
    const { swaps, transfers } = chain(2, 10 * H);
    expect(intermediaryTrades(swaps, transfers, new Set([POOL, addr("b1")]))).to.deep.equal([]);
  });

  it("ignores a transfer made before the buy", () => {
    const swaps = [swap("b0", "buy", 5 * H), swap("b1", "sell", 6 * H)];
    expect(intermediaryTrades(swaps, [send("b0", "b1", 4 * H)], new Set([POOL]))).to.deep.equal([]);
  });
});
