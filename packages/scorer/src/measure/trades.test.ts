import { expect } from "chai";
import { pairTrades, type PoolTransfer } from "./trades";

const USDG = "0x00000000000000000000000000000000000000a0";
const TSLA = "0x00000000000000000000000000000000000000b0";
const AAPL = "0x00000000000000000000000000000000000000b1";
const POOL_T = "0x00000000000000000000000000000000000000c0";
const POOL_A = "0x00000000000000000000000000000000000000c1";
const E18 = 10n ** 18n;
const USDG6 = { token: USDG, decimals: 6 };
const DECIMALS = new Map([
  [TSLA, 18],
  [AAPL, 18],
]);
const leg = (
  token: string,
  pool: string,
  amount: bigint,
  tx: string,
  logIndex: number,
  blockNumber = 5,
): PoolTransfer => ({
  token,
  pool,
  amount,
  txHash: `0x${tx.repeat(64)}`,
  logIndex,
  blockNumber,
});

describe("augur-trade/v2 pairing", () => {
  it("a buy: 2 TSLA in for 361.5 USDG out is a buy of 2 at 180.75 USDG", () => {
    const { trades, unpaired } = pairTrades(
      [leg(USDG, POOL_T, -361_500_000n, "a", 1), leg(TSLA, POOL_T, 2n * E18, "a", 0)],
      USDG6,
      DECIMALS,
    );
    expect(unpaired).to.deep.equal([]);
    expect(trades).to.deep.equal([
      {
        pool: POOL_T,
        asset: TSLA,
        side: "buy",
        quantity: 2n * E18,
        usdgAmount: 361_500_000n,
        price: 18_075n * 10n ** 16n,
        txHash: `0x${"a".repeat(64)}`,
        logIndex: 0,
        blockNumber: 5,
      },
    ]);
  });

  it("a sell, and two pools in one transaction, each a trade of its own, in log order", () => {
    const { trades } = pairTrades(
      [
        leg(AAPL, POOL_A, -3n * E18, "b", 7, 6),
        leg(USDG, POOL_A, 600_000_000n, "b", 8, 6),
        leg(TSLA, POOL_T, -E18, "b", 2, 6),
        leg(USDG, POOL_T, 179_999_999n, "b", 3, 6),
      ],
      USDG6,
      DECIMALS,
    );
    expect(trades.map((t) => [t.asset, t.side, t.price])).to.deep.equal([
      [TSLA, "sell", 179_999_999n * 10n ** 12n],
      [AAPL, "sell", 200n * E18],
    ]);
  });

  it("reads USDG's decimals: the same buy paid in an 18-decimal USDG has the same 18-decimal price", () => {
    const buy = (usdg: { token: string; decimals: number }, paid: bigint) =>
      pairTrades([leg(USDG, POOL_T, -paid, "e", 1), leg(TSLA, POOL_T, 2n * E18, "e", 0)], usdg, DECIMALS)
        .trades[0]!;
    const six = buy(USDG6, 361_500_000n);
    const eighteen = buy({ token: USDG, decimals: 18 }, 3615n * 10n ** 17n);
    expect(six.price).to.equal(18_075n * 10n ** 16n);
    expect(eighteen.price).to.equal(six.price);
    expect(eighteen.usdgAmount).to.equal(six.usdgAmount * 10n ** 12n);
  });

  it("legs that do not pair (one leg, or both the same way) are no trade", () => {
    const lone = leg(TSLA, POOL_T, E18, "c", 0);
    const sameWay = [leg(TSLA, POOL_T, E18, "d", 0), leg(USDG, POOL_T, 5n, "d", 1)];
    const { trades, unpaired } = pairTrades([lone, ...sameWay], USDG6, DECIMALS);
    expect(trades).to.deep.equal([]);
    expect(unpaired).to.have.length(3);
  });

  it("each way legs fail to pair is no trade: a lone cash leg, two stock or two cash legs, both out, a zero leg", () => {
    const groups: Record<string, PoolTransfer[]> = {
      "lone cash": [leg(USDG, POOL_T, -5n, "1", 0)],
      "two stock legs": [
        leg(TSLA, POOL_T, E18, "2", 0),
        leg(TSLA, POOL_T, E18, "2", 1),
        leg(USDG, POOL_T, -5n, "2", 2),
      ],
      "two cash legs": [
        leg(TSLA, POOL_T, E18, "3", 0),
        leg(USDG, POOL_T, -5n, "3", 1),
        leg(USDG, POOL_T, -5n, "3", 2),
      ],
      "both out": [leg(TSLA, POOL_T, -E18, "4", 0), leg(USDG, POOL_T, -5n, "4", 1)],
      "zero stock, cash in": [leg(TSLA, POOL_T, 0n, "5", 0), leg(USDG, POOL_T, 5n, "5", 1)],
      "zero stock, cash out": [leg(TSLA, POOL_T, 0n, "6", 0), leg(USDG, POOL_T, -5n, "6", 1)],
      "stock in for zero cash": [leg(TSLA, POOL_T, E18, "7", 0), leg(USDG, POOL_T, 0n, "7", 1)],
      "stock out for zero cash": [leg(TSLA, POOL_T, -E18, "8", 0), leg(USDG, POOL_T, 0n, "8", 1)],
    };
    for (const [name, legs] of Object.entries(groups)) {
      expect(pairTrades(legs, USDG6, DECIMALS), name).to.deep.equal({ trades: [], unpaired: legs });
    }
  });

  it("a sell of 1.5 TSLA for 270 USDG: quantity and amount positive, 180 USDG each", () => {
    const [trade] = pairTrades(
      [leg(TSLA, POOL_T, -(3n * E18) / 2n, "f", 4), leg(USDG, POOL_T, 270_000_000n, "f", 5)],
      USDG6,
      DECIMALS,
    ).trades;
    expect(trade).to.include({
      side: "sell",
      quantity: (3n * E18) / 2n,
      usdgAmount: 270_000_000n,
      price: 180n * E18,
    });
  });

  it("refuses a paired stock whose decimals it was not given, naming the token", () => {
    const legs = [leg(TSLA, POOL_T, E18, "g", 0), leg(USDG, POOL_T, -5n, "g", 1)];
    expect(() => pairTrades(legs, USDG6, new Map([[AAPL, 18]]))).to.throw(
      RangeError,
      `no decimals for ${TSLA}`,
    );
  });
});
