import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { deriveVaultInput, holderIndexFromSnapshots, holdingsFromTrades, type AgentRecords } from "./derive";
import { scoreVaults } from "./score-vaults";
import { parseVault } from "./validate";

const DAY = 86_400;
const T0 = 1_767_225_600; // 2026-01-01T00:00:00Z
const snap = (day: number, nav: number, flow = 0, invested = 0.8) => ({
  at: T0 + day * DAY,
  nav,
  flow,
  invested,
});
const buy = (day: number, asset: string, quantity: number, price: number) =>
  ({ at: T0 + day * DAY + 3600, asset, side: "buy", quantity, price }) as const;
const sell = (day: number, asset: string, quantity: number, price: number) =>
  ({ at: T0 + day * DAY + 7200, asset, side: "sell", quantity, price }) as const;

const options = { id: "agent-1" };

describe("deriving a vault's risk input from an agent's records", () => {
  it('"a large withdrawal is not counted as a loss": the holder index nets out flows', () => {
    // Half the capital walks out on day 2 (flow −500); one share's value does not move.
    const index = holderIndexFromSnapshots([snap(0, 1000), snap(1, 1000), snap(2, 500, -500), snap(3, 500)]);
    expect(index.map((p) => p.index)).to.deep.equal([1, 1, 1, 1]);
    const records: AgentRecords = {
      snapshots: [snap(0, 1000), snap(1, 1000), snap(2, 500, -500)],
      trades: [],
    };
    const { rows } = scoreVaults([deriveVaultInput(records, options)]);
    expect(rows[0]!.components.worst_fall).to.equal(0);
  });

  it("a real loss does move it: NAV 1000 → 600 with no flow is a 40 % fall", () => {
    const index = holderIndexFromSnapshots([snap(0, 1000), snap(1, 600), snap(2, 1200, 500)]);
    expect(index.map((p) => p.index)).to.deep.equal([1, 0.6, 0.7]);
  });

  it("a step from an empty vault leaves the index alone; losing more than everything floors it at 0", () => {
    expect(holderIndexFromSnapshots([snap(0, 0), snap(1, 100, 100)]).map((p) => p.index)).to.deep.equal([
      1, 1,
    ]);
    expect(holderIndexFromSnapshots([snap(0, 100), snap(1, 10, 50)]).map((p) => p.index)).to.deep.equal([
      1, 0,
    ]);
  });

  it("holdings: the net position per asset, with its side, valued at the last trade price", () => {
    const holdings = holdingsFromTrades([
      buy(0, "TSLA", 10, 200),
      buy(0, "AAPL", 5, 100),
      sell(1, "TSLA", 4, 250),
      sell(1, "AAPL", 8, 110),
      buy(2, "NVDA", 0.1, 100),
      sell(2, "NVDA", 0.1, 100),
    ]);
    expect(holdings).to.deep.equal([
      { instrument: "AAPL", side: "short", usd: 330 },
      { instrument: "TSLA", side: "long", usd: 1500 },
    ]);
  });

  it('"The share of observed days the strategy actually traded": days observed run from the first snapshot\'s UTC day to the as-of day; days traded count days with a trade, not days with a decision', () => {
    const records: AgentRecords = {
      snapshots: [snap(0, 1000), snap(9, 1000)],
      trades: [
        buy(1, "TSLA", 1, 100),
        buy(1, "TSLA", 1, 100),
        sell(4, "TSLA", 1, 100),
        buy(-3, "TSLA", 1, 1),
      ],
    };
    const vault = deriveVaultInput(records, options);
    expect([vault.days_observed, vault.days_traded]).to.deep.equal([10, 2]);
    const { rows } = scoreVaults([vault]);
    expect(rows[0]!.components.stopped).to.be.closeTo(0.8, 1e-12);
  });

  it("ignores records after the as-of time", () => {
    const records: AgentRecords = {
      snapshots: [snap(0, 1000), snap(1, 400), snap(5, 100)],
      trades: [buy(0, "TSLA", 1, 100), buy(4, "AAPL", 1, 100)],
    };
    const vault = deriveVaultInput(records, { ...options, asOf: "2026-01-03T00:00:00Z" });
    expect(vault.holder_index!.map((p) => p.index)).to.deep.equal([1, 0.4]);
    expect(vault.holdings).to.deep.equal([{ instrument: "TSLA", side: "long", usd: 100 }]);
    expect([vault.days_observed, vault.days_traded, vault.tvl_usd]).to.deep.equal([3, 1, 400]);
  });

  it("an unleveraged long book gets a cushion of 1 (reads 0); leverage or a short is unknown unless the venue says", () => {
    const base = { snapshots: [snap(0, 1000)], trades: [buy(0, "TSLA", 1, 100)] };
    expect(deriveVaultInput(base, options).liquidation_cushion).to.equal(1);
    const levered = { ...base, snapshots: [snap(0, 1000, 0, 1.5)] };
    expect(deriveVaultInput(levered, options).liquidation_cushion).to.equal(null);
    const short = { ...base, trades: [sell(0, "TSLA", 1, 100)] };
    expect(deriveVaultInput(short, options).liquidation_cushion).to.equal(null);
    const venue = { liquidation_cushion: 0.08, free_share: 0.3, largest_depositor_share: 0.9 };
    const told = deriveVaultInput(levered, { ...options, venue });
    expect([told.liquidation_cushion, told.free_share, told.largest_depositor_share]).to.deep.equal([
      0.08, 0.3, 0.9,
    ]);
  });

  it("knows nothing without snapshots: every field null, TVL 0", () => {
    const vault = deriveVaultInput({ snapshots: [], trades: [buy(0, "TSLA", 1, 1)] }, options);
    expect(vault).to.deep.equal({
      id: "agent-1",
      tvl_usd: 0,
      holder_index: null,
      holdings: null,
      liquidation_cushion: null,
      free_share: null,
      largest_depositor_share: null,
      days_observed: null,
      days_traded: null,
    });
  });

  it("sorts records into time order and yields a vault the validator accepts", () => {
    const records: AgentRecords = {
      snapshots: [snap(2, 900), snap(0, 1000), snap(1, 1100)],
      trades: [sell(1, "TSLA", 1, 120), buy(0, "TSLA", 3, 100)],
    };
    const vault = deriveVaultInput(records, options);
    const index = vault.holder_index!.map((p) => p.index);
    expect(index).to.have.length(3);
    [1, 1.1, 0.9].forEach((value, i) => expect(index[i]).to.be.closeTo(value, 1e-12));
    expect(vault.holdings).to.deep.equal([{ instrument: "TSLA", side: "long", usd: 240 }]);
    expect(parseVault(JSON.parse(JSON.stringify(vault)), "v")).to.deep.equal(vault);
  });

  it("refuses bad records with the field and row named", () => {
    const bad = (records: Partial<AgentRecords>) => () =>
      deriveVaultInput({ snapshots: [], trades: [], ...records } as AgentRecords, options);
    expect(bad({ snapshots: [snap(0, -1)] })).to.throw(
      InvalidInputError,
      "snapshots[0].nav: must be a number ≥ 0",
    );
    expect(bad({ snapshots: [snap(0, 1), snap(0, 2)] })).to.throw(
      InvalidInputError,
      "snapshots[1].at: repeats",
    );
    expect(bad({ trades: [{ ...buy(0, "X", 0, 1) }] })).to.throw(
      InvalidInputError,
      "trades[0].quantity: must be a number > 0",
    );
    expect(bad({ trades: [{ ...buy(0, "X", 1, 1), side: "hold" as "buy" }] })).to.throw(
      InvalidInputError,
      "trades[0].side",
    );
    expect(bad({ trades: [{ ...buy(0, "X", 1, 1), at: "yesterday" }] })).to.throw(
      InvalidInputError,
      "trades[0].at",
    );
    expect(() =>
      deriveVaultInput({ snapshots: [], trades: [] }, { ...options, venue: { free_share: 2 } }),
    ).to.throw(InvalidInputError, "venue.free_share");
  });
});

describe("deriving a vault's risk input: bounds, orders and the field each refusal names", () => {
  it("dust is flat: a net position at most 1e-9 of the quantity traded is dropped, at the bound too", () => {
    expect(holdingsFromTrades([buy(0, "X", 1000, 10), sell(0, "X", 999.9999995, 10)])).to.deep.equal([]);
    // net 1 against a gross of 1e9: exactly the bound.
    expect(holdingsFromTrades([buy(0, "X", 500000000.5, 2), sell(0, "X", 499999999.5, 2)])).to.deep.equal([]);
    expect(holdingsFromTrades([buy(0, "X", 500000001, 2), sell(0, "X", 499999999, 2)])).to.deep.equal([
      { instrument: "X", side: "long", usd: 4 },
    ]);
    expect(holdingsFromTrades([buy(0, "X", 1e-6, 3)])).to.deep.equal([
      { instrument: "X", side: "long", usd: 3e-6 },
    ]);
  });

  it("sorts holdings by instrument whatever order the assets were first traded in", () => {
    const trades = ["D", "B", "E", "A", "C"].map((asset, i) => buy(i, asset, 1, i + 1));
    expect(holdingsFromTrades(trades).map((h) => [h.instrument, h.usd])).to.deep.equal([
      ["A", 4],
      ["B", 2],
      ["C", 5],
      ["D", 1],
      ["E", 3],
    ]);
  });

  it("a book exactly fully invested and all long is unleveraged (cushion 1); one short among longs is not", () => {
    const invested = (share: number) => ({
      snapshots: [snap(0, 1000, 0, share)],
      trades: [buy(0, "A", 1, 1)],
    });
    expect(deriveVaultInput(invested(1), options).liquidation_cushion).to.equal(1);
    expect(deriveVaultInput(invested(1.0000001), options).liquidation_cushion).to.equal(null);
    const mixed = { snapshots: [snap(0, 1000)], trades: [buy(0, "A", 1, 1), sell(0, "B", 1, 1)] };
    expect(deriveVaultInput(mixed, options).liquidation_cushion).to.equal(null);
  });

  it("names the field and row of every bad record, option and venue fact", () => {
    const refusal = (records: Partial<AgentRecords>, more: Record<string, unknown> = {}) => {
      try {
        deriveVaultInput({ snapshots: [], trades: [], ...records } as AgentRecords, { ...options, ...more });
      } catch (error) {
        expect(error).to.be.instanceOf(InvalidInputError);
        return (error as InvalidInputError).shortMessage;
      }
      throw new Error("expected the records to be refused");
    };
    const cases: Array<[string, Partial<AgentRecords>, Record<string, unknown>?]> = [
      ["snapshots[0]: must be an object", { snapshots: [null as never] }],
      ["trades[1]: must be an object", { trades: [buy(0, "A", 1, 1), [] as never] }],
      ["snapshots[0].flow: must be a finite number", { snapshots: [snap(0, 1, NaN)] }],
      ["snapshots[0].invested: must be a number ≥ 0", { snapshots: [snap(0, 1, 0, -0.1)] }],
      ["trades[0].asset: must be a non-empty string", { trades: [buy(0, "", 1, 1)] }],
      [
        'trades[0].side: must be "buy" or "sell"',
        { trades: [{ ...buy(0, "A", 1, 1), side: "hold" as "buy" }] },
      ],
      ["trades[0].price: must be a number > 0", { trades: [buy(0, "A", 1, 0)] }],
      ["trades[0].price: must be a number > 0", { trades: [buy(0, "A", 1, -1)] }],
      ["id: must be a non-empty string", {}, { id: "" }],
      ["asOf: must be Unix seconds or an RFC 3339 date-time with a zone", {}, { asOf: "yesterday" }],
      ["venue.liquidation_cushion: must be a number ≥ 0 or null", {}, { venue: { liquidation_cushion: -1 } }],
      ["venue.free_share: must be a number in [0, 1] or null", {}, { venue: { free_share: 2 } }],
      [
        "venue.largest_depositor_share: must be a number in [0, 1] or null",
        {},
        { venue: { largest_depositor_share: -0.5 } },
      ],
    ];
    for (const [message, records, more] of cases) expect(refusal(records, more)).to.equal(message);
  });
});
