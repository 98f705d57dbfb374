import { expect } from "chai";
import type { MeasuredSnapshotBody } from "@augur/records";
import { measuredVenue } from "./measured";

const USDG = "0x00000000000000000000000000000000000000aa";
const STOCK = "0x00000000000000000000000000000000000000bb";

/** A measured snapshot: 6-decimal USDG, one stock of 18 decimals at 100 USDG. */
function body(
  at: number,
  usdg: bigint,
  shares: bigint,
  sellQuote: bigint | undefined,
  transfers: Array<[string, bigint]> = [],
  pooled?: { balance: bigint; sellQuote: bigint },
): MeasuredSnapshotBody {
  return {
    format: "augur-snapshot/v2",
    agentId: "a",
    seasonId: "s",
    wallet: "0x01",
    takenAt: at,
    block: { number: at, hash: "0xbeef", timestamp: at },
    flowsAfterBlock: -1,
    usdgDecimals: 6,
    usdg: { token: USDG, balance: usdg.toString() },
    holdings: [
      {
        token: STOCK,
        decimals: 18,
        balance: (shares * 10n ** 18n).toString(),
        price: (100n * 10n ** 18n).toString(),
        ...(sellQuote === undefined ? {} : { sellQuote: sellQuote.toString() }),
        ...(pooled === undefined
          ? {}
          : { pooled: { balance: pooled.balance.toString(), sellQuote: pooled.sellQuote.toString() } }),
        value: "0",
      },
    ],
    transfers: transfers.map(([counterparty, amount], i) => ({
      token: USDG,
      txHash: "0x00",
      logIndex: i,
      block: at,
      counterparty,
      amount: amount.toString(),
    })),
    nav: "0",
    stockValue: "0",
    flow: "0",
    investedBps: 0,
  };
}

describe("exit and largest depositor measured from the chain for the engine's own vaults", () => {
  it('"Could you get out": USDG plus what selling each position into its pool fetches, over the value at the oracle', () => {
    // 1,000 USDG cash; 10 shares worth 1,000 at the oracle that sell for 600 into a thin pool.
    const { venue, sources } = measuredVenue([body(3600, 1_000_000_000n, 10n, 600_000_000n)]);
    expect(venue.free_share).to.equal(0.8);
    expect(sources.exit!.source).to.include({
      block: 3600,
      usdg: "1600000000",
      value_at_oracle: "2000000000",
    });
  });

  it('"Could you get out" for a group: each position at its pooled share of selling every measured position in its pool together, where the snapshot carries it', () => {
    // The worked example of docs/risk-score.md: 1,000 USDG cash; 10 shares worth 1,000 at the
    // oracle whose lone sale fetches 600; every measured wallet holds 30 shares of the stock, and
    // selling those together fetches 1,200: this wallet's share is ⌊1,200 × 10 ÷ 30⌋ = 400.
    const shares = 10n * 10n ** 18n;
    const pooled = { balance: 3n * shares, sellQuote: 1_200_000_000n };
    const group = measuredVenue([body(3600, 1_000_000_000n, 10n, 600_000_000n, [], pooled)]);
    expect(group.venue.free_share).to.equal(0.7); // (1,000 + 400) / 2,000
    expect(group.sources.exit!.source).to.include({
      usdg: "1400000000",
      value_at_oracle: "2000000000",
      positions_at_pooled_share: 1,
    });
    // A lone holder: the pool's total is its own balance and its share its own quote (0.8, as before).
    const lone = { balance: shares, sellQuote: 600_000_000n };
    const alone = measuredVenue([body(3600, 1_000_000_000n, 10n, 600_000_000n, [], lone)]);
    expect(alone.venue.free_share).to.equal(0.8);
    expect(alone.sources.exit!.source).to.include({ positions_at_pooled_share: 0 });
    // A record sealed before the pooled rule is read by its own quote alone.
    expect(measuredVenue([body(3600, 1_000_000_000n, 10n, 600_000_000n)]).venue.free_share).to.equal(0.8);
  });

  it('"Null where the venue does not say, which is not the same as none": no quoter, an empty wallet, no snapshot', () => {
    expect(measuredVenue([body(1, 5n, 1n, undefined)]).venue.free_share).to.equal(null);
    expect(measuredVenue([body(1, 5n, 1n, undefined)]).sources.exit!.reason).to.match(/no quoter/);
    expect(measuredVenue([body(1, 0n, 0n, 0n)]).sources.exit!.reason).to.match(/empty/);
    const none = measuredVenue([]);
    expect([none.venue.free_share, none.venue.largest_depositor_share]).to.deep.equal([undefined, undefined]);
    expect(none.sources.largest_depositor!.reason).to.equal("no measured snapshot yet");
  });

  it('"Largest depositor": the largest net USDG payer into the wallet over all positive net payers', () => {
    const { venue, sources } = measuredVenue([
      body(1, 0n, 0n, 0n, [
        ["0xa", 600n],
        ["0xb", 300n],
      ]),
      body(2, 0n, 0n, 0n, [
        ["0xa", -300n],
        ["0xc", 100n],
        ["0xd", -50n],
      ]),
    ]);
    // Net: a 300, b 300, c 100 (d only withdrew): 300 / 700.
    expect(venue.largest_depositor_share).to.be.closeTo(3 / 7, 1e-9);
    expect(sources.largest_depositor!.source).to.deep.equal({
      depositors: 3,
      deposited: "700",
      snapshots: 2,
    });
    const unfunded = measuredVenue([body(1, 0n, 0n, 0n)]);
    expect(unfunded.venue.largest_depositor_share).to.equal(null);
    expect(unfunded.sources.largest_depositor!.reason).to.match(/no USDG deposit/);
  });
});
