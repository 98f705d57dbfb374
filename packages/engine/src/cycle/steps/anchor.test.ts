import { expect } from "chai";
import { seal } from "@augur/scorer";
import { anchorCurrentHead, currentHead } from "../../keeper/anchor-head";
import type { Store } from "../../store/open";
import { latestAnchor } from "../../store/queries/anchors";
import { testBackends } from "../../../test-support/store/testing";
import { FakeKeeper } from "../../../test-support/cycle/testing";
import { runCycle } from "../run";
import { anchorStep } from "./index";

const NOW = 1_800_000_000;

async function appendSeals(store: Store, tag: string, count: number): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    await store.log.append(
      trx,
      Array.from({ length: count }, (_, i) => seal({ tag, i })),
      NOW,
    );
  });
}

for (const backend of testBackends()) {
  describe(`anchor step and anchorCurrentHead on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
    });
    afterEach(async () => store.close());

    it("anchors the current head once: empty, pending, anchored, then current", async () => {
      const keeper = new FakeKeeper();
      const now = () => NOW;
      expect(await anchorCurrentHead(store, keeper, now)).to.deep.equal({ kind: "empty" });
      await appendSeals(store, "a", 3);
      keeper.pendingCalls = 1;
      expect(await anchorCurrentHead(store, keeper, now)).to.deep.equal({ kind: "pending", treeSize: 3 });
      expect(await latestAnchor(store.db)).to.equal(undefined);
      const anchored = await anchorCurrentHead(store, keeper, now);
      expect(anchored.kind).to.equal("anchored");
      expect((await latestAnchor(store.db))?.tree_size).to.equal(3);
      expect((await latestAnchor(store.db))?.recorded_at).to.equal(NOW);
      expect(await anchorCurrentHead(store, keeper, now)).to.deep.equal({ kind: "current", treeSize: 3 });
      expect(keeper.posted.map((h) => h.treeSize)).to.deep.equal([3]);
    });

    it("reports the head, anchors it with a keeper, and only reports it without one", async () => {
      await appendSeals(store, "b", 4);
      const lines: string[] = [];
      const progress = (line: string) => lines.push(line);
      const bare = await runCycle({ store, steps: [anchorStep()], now: () => NOW, progress });
      expect(bare.head).to.deep.equal(await currentHead(store));
      expect(bare.anchored).to.equal(undefined);
      expect(lines).to.include("keeper: not configured; head not anchored");

      const keeper = new FakeKeeper();
      const first = await runCycle({ store, steps: [anchorStep(keeper)], now: () => NOW, progress });
      expect(first.anchored).to.deep.equal({ anchorIndex: 0, treeSize: 4 });
      expect(lines).to.include("keeper: head 4 anchored at index 0, block 10");
      const again = await runCycle({ store, steps: [anchorStep(keeper)], now: () => NOW, progress });
      expect(again.anchored).to.deep.equal({ anchorIndex: 0, treeSize: 4 });
      expect(lines[lines.length - 1]).to.equal("keeper: head already anchored");
      expect(keeper.posted).to.have.length(1);
    });
  });
}
