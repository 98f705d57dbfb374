import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { seal } from "@augur/scorer";
import { makeSeason } from "@augur/scorer/src/augur/fixture";
import { main } from "../main";

function capture() {
  let out = "";
  let err = "";
  const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
  const stderr = new PassThrough().on("data", (c: Buffer) => (err += c.toString()));
  return { io: { stdout, stderr, stdin: new PassThrough() }, out: () => out, err: () => err };
}

describe("augur score", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), "augur-score-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
    return path;
  };

  it("prints the pinned JSON: rows by rank then agent id, each with its manifest and seal", async () => {
    const season = makeSeason([
      { id: "b", navs: [100, 100, 100] },
      { id: "a", navs: [100, 100, 100] },
      { id: "c", navs: [100, 104, 100] },
      { id: "d", navs: [100] },
    ]);
    const c = capture();
    expect(await main(["score", "--input", write("season.json", season)], c.io)).to.equal(0);
    const out = JSON.parse(c.out());
    expect(out).to.include({ formula: "augur-score/v1", season_id: "s1", as_of: season.as_of });
    expect(
      out.rows.map((r: { agent_id: string; rank: number | null }) => [r.agent_id, r.rank]),
    ).to.deep.equal([
      ["a", 1],
      ["b", 1],
      ["c", 3],
      ["d", null],
    ]);
    expect(out.rows[3]).to.include({ score: null, reason: "too_few_snapshots" });
    for (const row of out.rows) expect(seal(row.manifest)).to.equal(row.seal);
  });

  it("exits 1 naming the field and row of a bad file", async () => {
    const season = makeSeason([{ id: "a", navs: [100, 100, 100] }]) as unknown as {
      snapshots: { nav: unknown }[];
    };
    season.snapshots[1]!.nav = "lots";
    const c = capture();
    expect(await main(["score", "--input", write("bad.json", season)], c.io)).to.equal(1);
    expect(c.err()).to.equal("augur score: snapshots[1].nav: must be a decimal number\n");
  });

  it("exits 1 on a file that is not JSON or cannot be read", async () => {
    const c = capture();
    expect(await main(["score", "--input", write("text.json", "{ nope")], c.io)).to.equal(1);
    expect(c.err()).to.match(/^augur score: \$: is not valid JSON/);
    const d = capture();
    expect(await main(["score", "--input", join(dir, "missing.json")], d.io)).to.equal(1);
    expect(d.err()).to.contain("cannot read");
  });

  it("reads the season from stdin with --input -", async () => {
    const c = capture();
    const stdin = new PassThrough();
    stdin.end(JSON.stringify(makeSeason([{ id: "a", navs: [100, 100, 100] }])));
    expect(await main(["score", "--input", "-"], { ...c.io, stdin })).to.equal(0);
    expect(JSON.parse(c.out()).rows[0]).to.include({ agent_id: "a", score: 79.4, rank: 1 });
  });

  it("exits 2 without --input", async () => {
    const c = capture();
    expect(await main(["score"], c.io)).to.equal(2);
    expect(c.err()).to.contain("--input is required");
  });

  it("--workers N prints the same rows for any N, and exits 2 on a count that is not a whole number ≥ 1", async () => {
    const path = write(
      "workers.json",
      makeSeason([
        { id: "a", navs: [100, 101, 102] },
        { id: "b", navs: [100] },
      ]),
    );
    const one = capture();
    const three = capture();
    expect(await main(["score", "--input", path, "--workers", "1"], one.io)).to.equal(0);
    expect(await main(["score", "--input", path, "--workers", "3"], three.io)).to.equal(0);
    expect(three.out()).to.equal(one.out());
    for (const bad of ["0", "1.5", "two"]) {
      const c = capture();
      expect(await main(["score", "--input", path, "--workers", bad], c.io)).to.equal(2);
      expect(c.err()).to.contain(`--workers must be a whole number ≥ 1, not "${bad}"`);
    }
  });
});
