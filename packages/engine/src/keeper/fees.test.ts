import { expect } from "chai";
import { bumpFees, MIN_BUMP_BPS } from "./fees";

describe("keeper fees", () => {
  it("raises both caps by at least 12.5 %, rounding up", () => {
    const stuck = { maxFeePerGas: 1_000_000_001n, maxPriorityFeePerGas: 7n };
    const next = bumpFees(stuck, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    expect(MIN_BUMP_BPS).to.equal(1250n);
    expect(next.maxFeePerGas * 10_000n >= stuck.maxFeePerGas * 11_250n).to.equal(true);
    expect(next.maxPriorityFeePerGas * 10_000n >= stuck.maxPriorityFeePerGas * 11_250n).to.equal(true);
    expect(next.maxPriorityFeePerGas).to.equal(8n); // 7.875 rounded up
  });

  it("never pays less than a fresh transaction would now", () => {
    const next = bumpFees(
      { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n },
      { maxFeePerGas: 5_000n, maxPriorityFeePerGas: 50n },
    );
    expect(next).to.deep.equal({ maxFeePerGas: 5_000n, maxPriorityFeePerGas: 50n });
  });

  it("keeps the fee cap at or above the tip and strictly raises zero fees", () => {
    const next = bumpFees(
      { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n },
      { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n },
    );
    expect(next.maxPriorityFeePerGas).to.equal(1n);
    expect(next.maxFeePerGas >= next.maxPriorityFeePerGas).to.equal(true);
  });
});
