import { expect } from "chai";
import type { PoolSwap } from "./chain-data";
import { roundTripSwapIds, roundTripTakers } from "./round-trips";

const TAKER = `0x${"11".repeat(20)}`;
const POOL = `0x${"22".repeat(20)}`;
let n = 0;
const swap = (side: "buy" | "sell", time: number, tokens: bigint): PoolSwap => ({
  tx: `0x${(++n).toString(16).padStart(64, "0")}`,
  logIndex: 0,
  time,
  pool: POOL,
  taker: TAKER,
  side,
  tokens,
  usd: 1,
});
const H = 3600;

describe("stewardship (b): round trips", () => {
  it("three buys each 80 % sold back within 24 h flag the taker; their swaps are listed", () => {
    const swaps = [0, 4, 8].flatMap((h) => [swap("buy", h * H, 100n), swap("sell", (h + 1) * H, 80n)]);
    const [flagged] = roundTripTakers(swaps, new Set());
    expect(flagged!.roundTrips).to.have.length(3);
    expect(roundTripSwapIds(flagged!)).to.have.length(6);
  });

  it("a sale more than 24 h after the buy does not round-trip it", () => {
    const swaps = [0, 4, 8].flatMap((h) => [
      swap("buy", h * H, 100n),
      swap("sell", h * H + 24 * H + 1, 100n),
    ]);
    expect(roundTripTakers(swaps, new Set())).to.deep.equal([]);
    const onTheDot = [0, 4, 8].flatMap((h) => [swap("buy", h * H, 100n), swap("sell", h * H + 24 * H, 100n)]);
    expect(roundTripTakers(onTheDot, new Set())).to.have.length(1);
  });

  it("matches each sell to the newest open buy first, never counting a token twice", () => {
    // One sell of 240 after three buys of 100: the newest two are fully returned, the oldest 40 %.
    const swaps = [
      swap("buy", 0, 100n),
      swap("buy", H, 100n),
      swap("buy", 2 * H, 100n),
      swap("sell", 3 * H, 240n),
    ];
    expect(roundTripTakers(swaps, new Set())).to.deep.equal([]); // two round trips: not three
    const more = [...swaps, swap("buy", 4 * H, 100n), swap("sell", 5 * H, 100n)];
    const [flagged] = roundTripTakers(more, new Set());
    expect(flagged!.roundTrips.map((t) => t.returned)).to.deep.equal([100n, 100n, 100n]);
  });

  it("ignores excluded takers", () => {
    const swaps = [0, 4, 8].flatMap((h) => [swap("buy", h * H, 100n), swap("sell", (h + 1) * H, 100n)]);
    expect(roundTripTakers(swaps, new Set([TAKER]))).to.deep.equal([]);
  });

  it("a sell skips a fully returned buy; one buy may be returned by two sells", () => {
    const [a, b, s1, s2, c, s3, s4] = [
      swap("buy", 0, 100n),
      swap("buy", H, 100n),
      swap("sell", 2 * H, 100n), // returns b
      swap("sell", 3 * H, 100n), // b has nothing open: returns a, and is not listed under b
      swap("buy", 4 * H, 100n),
      swap("sell", 5 * H, 60n),
      swap("sell", 6 * H, 60n), // the last 40 of c; its other 20 find nothing open
    ];
    expect(roundTripTakers([a!, b!, s1!, s2!, c!, s3!, s4!], new Set())).to.deep.equal([
      {
        taker: TAKER,
        buys: 3,
        roundTrips: [
          { buy: a, returned: 100n, sells: [s2] },
          { buy: b, returned: 100n, sells: [s1] },
          { buy: c, returned: 100n, sells: [s3, s4] },
        ],
      },
    ]);
  });
});
