import { expect } from "chai";
import { seal } from "@augur/scorer";
import { NATIVE, receiptDocument, usdgValue, type ChainTransfer, type ReceiptInput } from "./document";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const OP1 = a(0xa1);
const OP2 = a(0xa2);
const TOKEN = a(0x70);
const USDG = a(0x05);
const WETH = a(0xee);
const LEDGER = a(0x1e);
const DEAD = "0x000000000000000000000000000000000000dead";
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const transfer = (
  block: number,
  logIndex: number,
  asset: string,
  from: string,
  to: string,
  amount: bigint,
): ChainTransfer => ({
  block,
  txIndex: 0,
  tx: tx(block * 100 + logIndex),
  logIndex,
  asset,
  from,
  to,
  amount,
});

const E18 = 10n ** 18n;
/** USDG per whole asset (18 decimals): the token at 0.5 USDG, ETH at 2,000 USDG from block 14. */
const price = (asset: string, block: number): bigint | null =>
  asset === TOKEN ? E18 / 2n : asset === WETH ? (block >= 14 ? 2_000n * E18 : null) : null;

const input: ReceiptInput = {
  chainId: 31337,
  range: { fromBlock: 10, toBlock: 20, fromHash: tx(1), toHash: tx(2) },
  token: TOKEN.toUpperCase().replace("0X", "0x"),
  operators: [OP2, OP1],
  keeper: a(0xbe),
  settler: a(0x5e),
  pricing: { oracle: a(0x0c), usdg: USDG, usdgDecimals: 6, eth: WETH },
  transfers: [
    transfer(12, 3, TOKEN, OP1, a(1), 100n * E18),
    transfer(11, 0, TOKEN, OP2, DEAD, 40n * E18),
    transfer(12, 1, TOKEN, OP1, OP2, 999n), // internal: not spent
    transfer(13, 0, TOKEN, a(1), "0x0000000000000000000000000000000000000000", 5n * E18), // a holder's burn
    transfer(11, 0, TOKEN, OP2, DEAD, 40n * E18), // the same log, read twice (operator and burn queries)
    transfer(16, 2, USDG, OP1, LEDGER, 25_000_000n), // a 25 USDG stake into the ledger
  ],
  nativeSends: [{ block: 15, txIndex: 1, tx: tx(7), from: OP2, to: a(2), amount: E18 / 100n }],
  gasTxs: [
    { block: 15, txIndex: 2, tx: tx(9), from: a(0x5e), status: 0, gasUsed: 30_000n, effectiveGasPrice: 2n },
    { block: 14, txIndex: 0, tx: tx(8), from: a(0xbe), status: 1, gasUsed: 50_000n, effectiveGasPrice: 3n },
    { block: 15, txIndex: 1, tx: tx(7), from: OP2, status: 1, gasUsed: 21_000n, effectiveGasPrice: 1n },
    { block: 13, txIndex: 0, tx: tx(6), from: OP1, status: 1, gasUsed: 40_000n, effectiveGasPrice: 1n },
  ],
  decimals: { [TOKEN]: 18, [USDG]: 6 },
  price,
};

describe("final receipt document", () => {
  it("a final receipt … of everything spent and everything burned: every asset, ETH, burns, keeper's and settler's gas, per asset and in USDG", () => {
    const doc = receiptDocument(input);
    expect(doc.format).to.equal("augur-receipt/v2");
    expect(doc.operators).to.deep.equal([OP1, OP2]);
    expect(doc.spends.map((t) => [t.block, t.asset, t.amount, t.usdg])).to.deep.equal([
      [12, TOKEN, (100n * E18).toString(), "50000000"], // 100 tokens at 0.5 = 50 USDG
      [15, NATIVE, (E18 / 100n).toString(), "20000000"], // 0.01 ETH at 2,000 = 20 USDG
      [16, USDG, "25000000", "25000000"], // USDG at 1
    ]);
    expect(doc.burns.map((t) => [t.block, t.from, t.amount])).to.deep.equal([
      [11, OP2, (40n * E18).toString()],
      [13, a(1), (5n * E18).toString()],
    ]);
    expect(doc.gas.map((g) => [g.block, g.roles, g.fee, g.usdg])).to.deep.equal([
      [13, ["operator"], "40000", null], // no ETH price before block 14
      [14, ["keeper"], "150000", "0"], // 150,000 wei at 2,000 USDG is under one base unit
      [15, ["operator"], "21000", "0"],
      [15, ["settler"], "60000", "0"], // the reverted transaction paid too
    ]);
    const byAsset = Object.fromEntries(doc.assets.map((t) => [t.asset, t]));
    expect(Object.keys(byAsset)).to.deep.equal([USDG, TOKEN, NATIVE].sort());
    expect(byAsset[TOKEN]).to.deep.include({
      spent: (100n * E18).toString(),
      spentBy: { [OP1]: (100n * E18).toString() },
      burned: (45n * E18).toString(),
      burnedByOperators: (40n * E18).toString(),
      gas: "0",
      usdg: { spent: "50000000", burned: "22500000", gas: "0" },
      unpriced: 0,
    });
    expect(byAsset[NATIVE]).to.deep.include({
      spent: (E18 / 100n).toString(),
      spentBy: { [OP2]: (E18 / 100n).toString() },
      gas: "271000",
      unpriced: 1,
    });
    expect(doc.totals).to.deep.equal({
      usdg: { spent: "95000000", burned: "22500000", gas: "0", all: "117500000" },
      lines: 9,
      unpriced: 1,
    });
    expect(doc.token).to.equal(TOKEN);
  });

  it("values a line by amount × price / 10^decimals, floored to USDG base units", () => {
    expect(usdgValue(3n * E18, 18, 2_000n * E18, 6)).to.equal(6_000_000_000n);
    expect(usdgValue(1n, 18, E18, 6)).to.equal(0n);
    expect(usdgValue(1_500_000n, 6, E18 / 3n, 18)).to.equal(499_999_999_999_999_999n);
  });

  it("without an oracle every USDG value is null and counted unpriced", () => {
    const doc = receiptDocument({ ...input, pricing: null });
    expect(doc.spends.every((t) => t.usdg === null)).to.equal(true);
    expect(doc.totals.usdg.all).to.equal("0");
    expect(doc.totals.unpriced).to.equal(doc.totals.lines);
  });

  it("seals the same whatever order the chain answered in", () => {
    const shuffled = {
      ...input,
      operators: [...input.operators].reverse(),
      transfers: [...input.transfers].reverse(),
      gasTxs: [...input.gasTxs].reverse(),
    };
    expect(seal(receiptDocument(shuffled))).to.equal(seal(receiptDocument(input)));
    const other = { ...input, range: { ...input.range, toHash: tx(3) } };
    expect(seal(receiptDocument(other))).to.not.equal(seal(receiptDocument(input)));
  });
});
