import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { InvalidInputError } from "@augur/scorer";
import type { CommandIo } from "../command";
import { main } from "../main";
import { command } from "./risk";

function fakeIo(): CommandIo & { out: () => string; err: () => string } {
  const chunks = { out: [] as string[], err: [] as string[] };
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  return {
    stdout: sink(chunks.out),
    stderr: sink(chunks.err),
    stdin: new PassThrough(),
    out: () => chunks.out.join(""),
    err: () => chunks.err.join(""),
  };
}

const vault = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  tvl_usd: 100,
  holder_index: [
    { at: "2026-01-01T00:00:00Z", index: 1 },
    { at: "2026-01-02T00:00:00Z", index: 0.75 },
  ],
  holdings: [{ instrument: "TSLA", side: "long", usd: 10 }],
  liquidation_cushion: 1,
  free_share: null,
  largest_depositor_share: 0.25,
  days_observed: 10,
  days_traded: 10,
  ...fields,
});

describe("augur risk", () => {
  let dir: string;
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    return path;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-risk-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("prints { rows, coverage } with every component per row and exits 0", async () => {
    const input = file("ok.json", { vaults: [vault("a"), vault("b", { holder_index: null, tvl_usd: 300 })] });
    const io = fakeIo();
    expect(await command.run(["--input", input], io)).to.equal(0);
    const printed = JSON.parse(io.out());
    expect(Object.keys(printed)).to.deep.equal(["rows", "coverage"]);
    expect(printed.rows[0]).to.deep.equal({
      vault_id: "a",
      score: 39.4, // 100 × (25 × 0.5 + 20 × 1) / 82.5
      measurable_share: 0.825,
      components: {
        worst_fall: 0.5,
        shared_exposure: 1,
        liquidation: 0,
        exit: null,
        largest_depositor: 0,
        stopped: 0,
      },
      reason: null,
    });
    expect(printed.rows[1]).to.deep.include({ vault_id: "b", score: 34.8, measurable_share: 0.575 });
    expect(printed.coverage).to.deep.equal({ capital_share: 1, vault_share: 1, unscored: 0 });
    expect(io.err()).to.equal("");
  });

  it("--sort <component> puts the worst first and unknown readings last", async () => {
    const input = file("sort.json", {
      vaults: [vault("low", { free_share: 0.2 }), vault("unknown"), vault("high", { free_share: 0.01 })],
    });
    const io = fakeIo();
    expect(await command.run(["--input", input, "--sort", "exit"], io)).to.equal(0);
    expect(JSON.parse(io.out()).rows.map((r: { vault_id: string }) => r.vault_id)).to.deep.equal([
      "high",
      "low",
      "unknown",
    ]);
  });

  it("a bad file exits 1 with one line naming the field and the row", async () => {
    const input = file("bad.json", {
      vaults: [vault("a"), vault("b"), vault("c"), vault("d", { free_share: 2 })],
    });
    const io = fakeIo();
    expect(await main(["risk", "--input", input], io)).to.equal(1);
    expect(io.err()).to.equal("augur risk: vaults[3].free_share: must be a number in [0, 1] or null\n");
    expect(io.out()).to.equal("");
    await command.run(["--input", input], fakeIo()).then(
      () => expect.fail("expected a refusal"),
      (error) => expect(error).to.be.instanceOf(InvalidInputError),
    );
  });

  it("a file that is not JSON, or is missing, exits 1 with one line", async () => {
    const io = fakeIo();
    expect(await main(["risk", "--input", file("broken.json", "{ vaults: ")], io)).to.equal(1);
    expect(io.err()).to.match(/^augur risk: \$: is not valid JSON \(.+\)\n$/);
    const missing = fakeIo();
    expect(await main(["risk", "--input", join(dir, "absent.json")], missing)).to.equal(1);
    expect(missing.err()).to.match(/^augur risk: cannot read .*absent\.json \(ENOENT\)\n$/);
  });

  it("bad usage exits 2: no --input, an unknown option, an unknown sort key", async () => {
    for (const argv of [
      [],
      ["--input"],
      ["--input", "x.json", "--verbose"],
      ["--input", "x.json", "--sort", "return"],
    ]) {
      const io = fakeIo();
      expect(await main(["risk", ...argv], io)).to.equal(2);
      expect(io.err().split("\n")).to.have.length(2); // one line and its newline
    }
  });

  it("--help prints the usage, naming the input and every sort key", async () => {
    const io = fakeIo();
    expect(await main(["risk", "--help"], io)).to.equal(0);
    expect(io.out()).to.contain("augur risk --input <vaults.json>");
    for (const key of [
      "score",
      "worst_fall",
      "shared_exposure",
      "liquidation",
      "exit",
      "largest_depositor",
      "stopped",
    ]) {
      expect(io.out()).to.contain(key);
    }
  });

  it("runs as the real bin: `npx augur risk --input …`", function () {
    this.timeout(60_000);
    const root = resolve(__dirname, "../../../../..");
    const input = file("bin.json", { vaults: [vault("a")] });
    const ok = spawnSync("npx", ["augur", "risk", "--input", input], { cwd: root, encoding: "utf8" });
    expect(ok.status, ok.stderr).to.equal(0);
    expect(JSON.parse(ok.stdout).rows[0].score).to.equal(15.2); // alone, it shares no crowd: 100 × 12.5 / 82.5
    const bad = spawnSync("npx", ["augur", "risk", "--input", file("bin-bad.json", { vaults: [{}] })], {
      cwd: root,
      encoding: "utf8",
    });
    expect(bad.status).to.equal(1);
    expect(bad.stderr.trim()).to.equal("augur risk: vaults[0].id: is required (null where unknown)");
  });
});
