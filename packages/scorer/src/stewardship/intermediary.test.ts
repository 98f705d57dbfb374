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

describe("stewardship (a): intermediary boundaries", () => {
  const skip = new Set([POOL]);
  const D = 24 * H;
  const find = (swaps: PoolSwap[], transfers: TokenTransfer[], excluded = skip) =>
    intermediaryTrades(swaps, transfers, excluded).map((t) => ({
      path: t.path,
      sells: t.sells.map((s) => s.time),
    }));
  const path = (...names: string[]) => names.map(addr);

  it("counts a transfer at the buy's second, at the previous arrival's second and at the deadline", () => {
    const atBuy = [swap("b0", "buy", H), swap("b1", "sell", 2 * H)];
    expect(find(atBuy, [send("b0", "b1", H)])).to.deep.equal([{ path: path("b0", "b1"), sells: [2 * H] }]);
    const sameSecond = [swap("b0", "buy", 0), swap("b2", "sell", 3 * H)];
    expect(find(sameSecond, [send("b0", "b1", 2 * H), send("b1", "b2", 2 * H)])).to.deep.equal([
      { path: path("b0", "b1", "b2"), sells: [3 * H] },
    ]);
    const atDeadline = [swap("b0", "buy", 0), swap("b1", "sell", D)];
    expect(find(atDeadline, [send("b0", "b1", D)])).to.deep.equal([{ path: path("b0", "b1"), sells: [D] }]);
    expect(find(atDeadline, [send("b0", "b1", D + 1)])).to.deep.equal([]);
  });

  it("starts from buys only", () => {
    const swaps = [swap("b0", "sell", 0), swap("b1", "sell", 2 * H)];
    expect(find(swaps, [send("b0", "b1", H)])).to.deep.equal([]);
  });

  it("lets a transfer after the deadline not claim its receiver first", () => {
    // Breadth-first, b0 → c (too late) is looked at before b1 → c (in time) reaches c.
    const swaps = [swap("b0", "buy", 0), swap("c", "sell", 3 * H)];
    const transfers = [send("b0", "b1", H), send("b1", "c", 2 * H), send("b0", "c", D + 1)];
    expect(find(swaps, transfers)).to.deep.equal([{ path: path("b0", "b1", "c"), sells: [3 * H] }]);
  });

  it("refuses a hop earlier than the one before it", () => {
    const swaps = [swap("b0", "buy", 0), swap("b2", "sell", 5 * H)];
    expect(find(swaps, [send("b0", "b1", 2 * H), send("b1", "b2", 2 * H - 1)])).to.deep.equal([]);
  });

  it("counts a sale at the arrival's second and at the deadline, not a buy by the receiver", () => {
    const swaps = [
      swap("b0", "buy", 0),
      swap("b1", "buy", 2 * H),
      swap("b1", "sell", H),
      swap("b1", "sell", D),
    ];
    expect(find(swaps, [send("b0", "b1", H)])).to.deep.equal([{ path: path("b0", "b1"), sells: [H, D] }]);
    expect(find([swap("b0", "buy", 0), swap("b1", "buy", 2 * H)], [send("b0", "b1", H)])).to.deep.equal([]);
  });

  it("lists every address that sold, each with its own sales, in the order reached", () => {
    const swaps = [
      swap("b0", "buy", 0),
      swap("c1", "sell", 3 * H),
      swap("b2", "sell", 4 * H),
      swap("c1", "sell", 5 * H),
    ];
    const transfers = [send("b0", "c1", H), send("b0", "b1", H), send("b1", "b2", 2 * H)];
    expect(find(swaps, transfers)).to.deep.equal([
      { path: path("b0", "c1"), sells: [3 * H, 5 * H] },
      { path: path("b0", "b1", "b2"), sells: [4 * H] },
    ]);
  });

  it("reaches an address once, by its first transfer, and never back to the buyer", () => {
    const swaps = [swap("b0", "buy", 0), swap("b1", "sell", 5 * H), swap("b0", "sell", 6 * H)];
    const transfers = [send("b0", "b1", H), send("b0", "b1", 2 * H), send("b1", "b0", 3 * H)];
    expect(find(swaps, transfers)).to.deep.equal([{ path: path("b0", "b1"), sells: [5 * H] }]);
  });

  it("ignores zero-amount transfers, an excluded buyer and an excluded receiver", () => {
    const swaps = [swap("b0", "buy", 0), swap("b1", "sell", 2 * H)];
    expect(find(swaps, [{ ...send("b0", "b1", H), amount: 0n }])).to.deep.equal([]);
    expect(find(swaps, [send("b0", "b1", H)], new Set([POOL, addr("b0")]))).to.deep.equal([]);
    expect(find(swaps, [send("b0", "b1", H)], new Set([POOL, addr("b1")]))).to.deep.equal([]);
  });
});
