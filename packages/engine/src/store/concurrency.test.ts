import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { merkleRoot, type Hex32 } from "@augur/scorer";
import { openStore } from "./open";
import { insertSeason } from "./queries/seasons";

/** Starts the workers, waits until each has its store open, then releases them together. */
async function runWorkers(file: string, labels: string[], count: number): Promise<Array<number | null>> {
  const children = labels.map((label) =>
    spawn(
      process.execPath,
      [
        "-r",
        "tsx/cjs",
        join(__dirname, "../../test-support/store/append-worker.ts"),
        file,
        label,
        String(count),
      ],
      {
        stdio: ["pipe", "pipe", "inherit"],
      },
    ),
  );
  const exits = children.map((child) => new Promise<number | null>((resolve) => child.on("exit", resolve)));
  await Promise.all(
    children.map((child) => new Promise<void>((resolve) => child.stdout.once("data", () => resolve()))),
  );
  for (const child of children) child.stdin.end("go\n");
  return Promise.all(exits);
}

describe("one SQLite store, several engine processes", () => {
  it("serialises their log appends: every leaf once, contiguous indices, a consistent tree", async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), "augur-concurrency-"));
    const file = join(dir, "augur.sqlite");
    try {
      const setup = await openStore({ kind: "sqlite", file });
      await insertSeason(setup.db, {
        id: "s1",
        name: "s1",
        starts_at: 0,
        ends_at: 10,
        closed_at: null,
        created_at: 0,
      });
      await setup.close();

      const codes = await runWorkers(file, ["p1", "p2", "p3"], 60);
      expect(codes).to.deep.equal([0, 0, 0]);

      const store = await openStore({ kind: "sqlite", file });
      try {
        const leaves = await store.db
          .selectFrom("merkle_leaves")
          .select(["leaf_index", "seal"])
          .orderBy("leaf_index")
          .execute();
        expect(leaves.map((l) => l.leaf_index)).to.deep.equal([...Array(180).keys()]);
        const records = await store.db
          .selectFrom("records")
          .select(["seal", "leaf_index", "agent_id"])
          .execute();
        expect(records).to.have.length(180);
        expect(new Set(records.map((r) => r.agent_id))).to.deep.equal(new Set(["p1", "p2", "p3"]));
        // The processes really interleaved (not one after another).
        const byIndex = records.sort((a, b) => a.leaf_index - b.leaf_index).map((r) => r.agent_id);
        const switches = byIndex.filter((label, i) => i > 0 && label !== byIndex[i - 1]).length;
        expect(switches).to.be.greaterThan(2);
        expect(await store.log.root(store.db, 180)).to.equal(merkleRoot(leaves.map((l) => l.seal as Hex32)));
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
