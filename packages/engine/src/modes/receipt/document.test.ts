import { expect } from "chai";
import { seal } from "@augur/scorer";
import { receiptDocument, type ChainTransfer, type ReceiptInput } from "./document";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const OP1 = a(0xa1);
const OP2 = a(0xa2);
const DEAD = "0x000000000000000000000000000000000000dead";
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const transfer = (
  block: number,
  logIndex: number,
  from: string,
  to: string,
  amount: bigint,
): ChainTransfer => ({
  block,
  tx: tx(block * 100 + logIndex),
  logIndex,
  from,
  to,
  amount,
});

const input: ReceiptInput = {
  chainId: 31337,
  range: { fromBlock: 10, toBlock: 20, fromHash: tx(1), toHash: tx(2) },
  token: a(0x70).toUpperCase().replace("0X", "0x"),
  operators: [OP2, OP1],
  keeper: a(0xbe),
  transfers: [
    transfer(12, 3, OP1, a(1), 100n),
    transfer(11, 0, OP2, DEAD, 40n),
    transfer(12, 1, OP1, OP2, 999n), // internal: not spent
    transfer(13, 0, a(1), "0x0000000000000000000000000000000000000000", 5n), // a holder's burn
    transfer(11, 0, OP2, DEAD, 40n), // the same log, read twice (operator and burn queries)
  ],
  keeperTxs: [
    { block: 15, tx: tx(9), index: 2, status: 0, gasUsed: 30_000n, effectiveGasPrice: 2n },
    { block: 14, tx: tx(8), index: 0, status: 1, gasUsed: 50_000n, effectiveGasPrice: 3n },
  ],
};

describe("final receipt document", () => {
  it("classifies spends and burns, skips internal moves, counts each log once, totals exactly", () => {
    const doc = receiptDocument(input);
    expect(doc.operators).to.deep.equal([OP1, OP2]);
    expect(doc.spends.map((t) => [t.block, t.logIndex, t.amount])).to.deep.equal([[12, 3, "100"]]);
    expect(doc.burns.map((t) => [t.block, t.amount])).to.deep.equal([
      [11, "40"],
      [13, "5"],
    ]);
    expect(doc.totals).to.deep.equal({
      spent: "100",
      spentByOperator: { [OP1]: "100" },
      burned: "45",
      burnedByOperators: "40",
      keeperFeeWei: "210000", // 50,000 × 3 + 30,000 × 2 (the reverted transaction paid too)
      keeperTransactions: 2,
    });
    expect(doc.keeperTransactions.map((t) => t.block)).to.deep.equal([14, 15]);
    expect(doc.token).to.equal(a(0x70));
  });

  it("seals the same whatever order the chain answered in", () => {
    const shuffled = {
      ...input,
      operators: [...input.operators].reverse(),
      transfers: [...input.transfers].reverse(),
      keeperTxs: [...input.keeperTxs].reverse(),
    };
    expect(seal(receiptDocument(shuffled))).to.equal(seal(receiptDocument(input)));
    const other = { ...input, range: { ...input.range, toHash: tx(3) } };
    expect(seal(receiptDocument(other))).to.not.equal(seal(receiptDocument(input)));
  });
});
