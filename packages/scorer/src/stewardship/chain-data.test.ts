import { expect } from "chai";
import { InvalidInputError } from "../errors";
import {
  chainOrder,
  checkFunding,
  checkSwaps,
  checkTransfers,
  type FundingTransfer,
  type PoolSwap,
  swapId,
  type TokenTransfer,
} from "./chain-data";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;
const transfer: TokenTransfer = { tx: "0x01", logIndex: 0, time: 0, from: A, to: B, amount: 0n };
const swap: PoolSwap = {
  tx: "0x01",
  logIndex: 1,
  time: 0,
  pool: A,
  taker: B,
  side: "buy",
  tokens: 1n,
  usd: 0,
};
const funding: FundingTransfer = { ...transfer, asset: "eth", logIndex: -1 };

/** The refusal's message, or undefined when the check passes. */
function refusal(check: () => void): string | undefined {
  try {
    check();
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidInputError);
    return (error as InvalidInputError).shortMessage;
  }
  return undefined;
}

describe("stewardship chain data: the checks on every log", () => {
  it("accepts the edges: time 0, a transfer of nothing, a swap of $0, an ETH value at log index −1", () => {
    expect(refusal(() => checkTransfers([transfer]))).to.equal(undefined);
    expect(refusal(() => checkSwaps([swap, { ...swap, side: "sell" }]))).to.equal(undefined);
    expect(refusal(() => checkFunding([funding, { ...funding, asset: B, logIndex: 0 }]))).to.equal(undefined);
  });

  const when = "must be a unix time in seconds";
  const address = "must be a lowercase 0x address of 20 bytes";
  const cases: [string, () => void, string][] = [
    [
      "a negative time",
      () => checkTransfers([transfer, { ...transfer, time: -1 }]),
      `transfers[1].time: ${when}`,
    ],
    ["a fractional time", () => checkTransfers([{ ...transfer, time: 1.5 }]), `transfers[0].time: ${when}`],
    [
      "a checksummed sender",
      () => checkTransfers([{ ...transfer, from: A.toUpperCase().replace("0X", "0x") }]),
      `transfers[0].from: ${address}`,
    ],
    [
      "a short recipient",
      () => checkTransfers([{ ...transfer, to: B.slice(0, 41) }]),
      `transfers[0].to: ${address}`,
    ],
    [
      "a negative amount",
      () => checkTransfers([{ ...transfer, amount: -1n }]),
      "transfers[0].amount: must be a bigint of base units, 0 or more",
    ],
    [
      "an amount as a number",
      () => checkTransfers([{ ...transfer, amount: 5 as unknown as bigint }]),
      "transfers[0].amount: must be a bigint",
    ],
    [
      "a funding asset that is neither eth nor an address",
      () => checkFunding([{ ...funding, asset: "usdg" }]),
      'funding[0].asset: must be "eth" or a lowercase 0x address',
    ],
    [
      "a funding log index below −1",
      () => checkFunding([{ ...funding, logIndex: -2 }]),
      "funding[0].logIndex: must be a log index, or -1",
    ],
    [
      "a fractional funding log index",
      () => checkFunding([{ ...funding, logIndex: 0.5 }]),
      "funding[0].logIndex: must be a log index, or -1",
    ],
    [
      "a funding transfer's bad time, named as funding",
      () => checkFunding([{ ...funding, time: -1 }]),
      `funding[0].time: ${when}`,
    ],
    ["a swap's bad time", () => checkSwaps([{ ...swap, time: -1 }]), `swaps[0].time: ${when}`],
    ["a swap's bad pool", () => checkSwaps([{ ...swap, pool: "pool" }]), `swaps[0].pool: ${address}`],
    ["a swap's bad taker", () => checkSwaps([{ ...swap, taker: "" }]), `swaps[0].taker: ${address}`],
    [
      "a swap of another side",
      () => checkSwaps([{ ...swap, side: "long" as "buy" }]),
      'swaps[0].side: must be "buy" or "sell"',
    ],
    [
      "a swap of no tokens",
      () => checkSwaps([{ ...swap, tokens: 0n }]),
      "swaps[0].tokens: must be a bigint of base units above 0",
    ],
    [
      "a swap of tokens as a number",
      () => checkSwaps([{ ...swap, tokens: 5 as unknown as bigint }]),
      "swaps[0].tokens: must be a bigint",
    ],
    [
      "a negative swap value",
      () => checkSwaps([{ ...swap, usd: -0.01 }]),
      "swaps[0].usd: must be a finite number, 0 or more",
    ],
    [
      "an infinite swap value",
      () => checkSwaps([{ ...swap, usd: Infinity }]),
      "swaps[0].usd: must be a finite number, 0 or more",
    ],
  ];
  for (const [label, check, message] of cases) {
    it(`refuses ${label}, naming it`, () => {
      expect(refusal(check)).to.satisfy((m: string | undefined) => m?.startsWith(message));
    });
  }

  it("names a swap in evidence as <tx>:<logIndex>", () => {
    expect(swapId(swap)).to.equal("0x01:1");
  });

  it("orders by time, then transaction, then log index", () => {
    const at = (time: number, tx: string, logIndex: number) => ({ time, tx, logIndex });
    const ordered = [
      at(1, "0x02", 5),
      at(2, "0x01", 3),
      at(2, "0x01", 4),
      at(2, "0x02", 0),
      at(3, "0x00", 0),
    ];
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect(Math.sign(chainOrder(ordered[i]!, ordered[j]!)), `${i} vs ${j}`).to.equal(Math.sign(i - j));
      }
    }
  });
});
