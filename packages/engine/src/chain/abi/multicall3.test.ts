import { expect } from "chai";
import fc from "fast-check";
import { AbiCoder } from "ethers";
import {
  AggregateAnswerError,
  decodeBalanceAggregate,
  encodeBalanceAggregate,
  multicall3,
} from "./multicall3";

const coder = AbiCoder.defaultAbiCoder();
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => `0x${Buffer.from(b).toString("hex")}`);
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
/** What ethers' coder makes of `results` as an aggregate3 answer. */
const answer = (results: ReadonlyArray<{ success: boolean; returnData: string }>) =>
  multicall3.encodeFunctionResult("aggregate3", [results]);
const ok = (values: readonly bigint[]) =>
  values.map((v) => ({ success: true, returnData: coder.encode(["uint256"], [v]) }));

describe("aggregate3 balanceOf codec", () => {
  it("encodes the calldata ethers' coder encodes", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ token: address, owner: address }), { maxLength: 30 }), (calls) => {
        const ethers = multicall3.encodeFunctionData("aggregate3", [
          calls.map((c) => ({
            target: c.token,
            allowFailure: false,
            callData: `0x70a08231${c.owner.slice(2).padStart(64, "0")}`,
          })),
        ]);
        expect(encodeBalanceAggregate(calls)).to.equal(ethers);
      }),
    );
  });

  it("decodes every result of an answer in order, as ethers' coder does", () => {
    fc.assert(
      fc.property(fc.array(uint256, { maxLength: 60 }), (values) => {
        expect(decodeBalanceAggregate(answer(ok(values)), values.length)).to.deep.equal(values);
      }),
    );
  });

  it("refuses a failed call, a result that is not one word, a count that differs and a cut answer", () => {
    const good = answer(ok([5n, 7n]));
    const cases: Array<[string, number, string]> = [
      [answer([...ok([5n]), { success: false, returnData: "0x" }]), 2, "call 1 failed"],
      [answer([...ok([5n]), { success: true, returnData: "0x" }]), 2, "call 1 returned 0 bytes, not 32"],
      [good, 3, "2 results for 3 calls"],
      [good.slice(0, good.length - 64), 2, "result 1 is past the end"],
      [good.slice(0, good.length - 128), 2, "result 1's data length at byte"],
      [good.slice(0, good.length - 1), 2, "not hex bytes"],
      ["0x", 0, "the array offset at byte 0 is past the end"],
    ];
    for (const [raw, count, message] of cases)
      expect(() => decodeBalanceAggregate(raw, count))
        .to.throw(AggregateAnswerError, message)
        .with.property("code", "MEASURE_AGGREGATE_ANSWER");
  });

  it("refuses to encode a call whose token or owner is not an address", () => {
    expect(() => encodeBalanceAggregate([{ token: "0x12", owner: `0x${"11".repeat(20)}` }])).to.throw(
      RangeError,
      "not an address: 0x12",
    );
  });
});
