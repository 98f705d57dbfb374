import { expect } from "chai";
import { FakeCloses } from "../../../test-support/closes/testing";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { runCycle } from "../run";
import { anchorStep, closesStep } from "./index";

const TSLA = "0x1111111111111111111111111111111111111111";
const AAPL = "0x2222222222222222222222222222222222222222";
const H0 = 1_800_000_000; // on the hour

for (const backend of testBackends()) {
  describe(`closes step on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
    });
    afterEach(async () => store.close());

    it("seals the hour's closes before the head is read, and says which assets had no price", async () => {
      // AAPL has no price at all; TSLA only from H0 on (the backfill stops at the first miss).
      const source = new FakeCloses([TSLA, AAPL], (asset, at) =>
        asset === TSLA && at >= H0 ? 10n ** 20n : undefined,
      );
      const lines: string[] = [];
      const report = await runCycle({
        store,
        steps: [closesStep(source), anchorStep()],
        now: () => H0 + 60,
        progress: (line) => lines.push(line),
      });
      expect(report.closes).to.equal(1);
      expect(report.head.treeSize).to.equal(1);
      expect(lines[0]).to.match(
        /^closes: 1 hourly closes sealed as of 1800000000; no price for \d+ \(PriceOracleWindowNotCovered\)$/,
      );
      expect(lines[1]).to.match(/^log head: size 1, root 0x[0-9a-f]{64}$/);
    });
  });
}
