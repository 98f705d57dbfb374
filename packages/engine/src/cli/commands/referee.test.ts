import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { refereeAgent, parseRefereeInput, type RefereeInput } from "@augur/scorer";
import { main } from "../main";

/** TSLA 100 → 125 → 100 and one agent with two right calls: Σr 0.315, percentile 87.5244140625. */
const INPUT: RefereeInput = {
  epoch: 1,
  closes: {
    "TSLA/USDG": [
      { at: "2026-11-30T00:00:00Z", close: 100 },
      { at: "2026-11-30T01:00:00Z", close: 125 },
      { at: "2026-11-30T02:00:00Z", close: 100 },
    ],
  },
  predictions: [
    {
      agent: "alice",
      slot: "2026-11-30T00:00:00Z",
      pair: "TSLA/USDG",
      horizon_h: 1,
      direction: "up",
      size: 100,
    },
    {
      agent: "alice",
      slot: "2026-11-30T01:00:00Z",
      pair: "TSLA/USDG",
      horizon_h: 1,
      direction: "down",
      size: 40,
    },
    {
      agent: "bob",
      slot: "2026-11-30T01:00:00Z",
      pair: "TSLA/USDG",
      horizon_h: 1,
      direction: "up",
      size: 10,
    },
  ],
};

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: "", stderr: "" };
  stdout.on("data", (c) => (chunks.stdout += c));
  stderr.on("data", (c) => (chunks.stderr += c));
  const code = await main(argv, { stdout, stderr, stdin: new PassThrough() });
  return { code, ...chunks };
}

describe("augur referee", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-referee-"));
    file = join(dir, "input.json");
    writeFileSync(file, JSON.stringify(INPUT));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("detail --json prints the pinned object", async () => {
    const { code, stdout, stderr } = await run([
      "referee",
      "detail",
      "--input",
      file,
      "--agent",
      "alice",
      "--epoch",
      "1",
      "--json",
    ]);
    expect(stderr).to.equal("");
    expect(code).to.equal(0);
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).to.deep.equal([
      "agent",
      "epoch",
      "scored_calls",
      "sum_r",
      "percentile",
      "status",
      "quantiles",
    ]);
    expect(json).to.include({
      agent: "alice",
      epoch: 1,
      scored_calls: 2,
      sum_r: 0.315,
      percentile: 87.5244140625,
      status: "proving",
    });
    expect(Object.keys(json.quantiles)).to.deep.equal([
      "min",
      "p1",
      "p5",
      "p10",
      "p25",
      "p50",
      "p75",
      "p90",
      "p95",
      "p99",
      "max",
    ]);
    expect(json.quantiles.max).to.equal(0.315);
  });

  it("detail prints a readable summary, and with --monkeys every monkey's Σr", async () => {
    const { code, stdout } = await run([
      "referee",
      "detail",
      "--input",
      file,
      "--agent",
      "alice",
      "--epoch",
      "1",
      "--monkeys",
    ]);
    expect(code).to.equal(0);
    expect(stdout).to.match(/^Σr {12}0\.315$/m);
    expect(stdout).to.match(/^percentile {4}87\.5244140625 \(proving\)$/m);
    const monkeyLines = stdout.split("\n").filter((line) => /^ {2}\d+ {2}-?[\d.]+$/.test(line));
    expect(monkeyLines).to.have.length(2048);
    const expected = refereeAgent(parseRefereeInput(INPUT), "alice").monkeySumsR;
    expect(monkeyLines[2047]).to.equal(`  2047  ${expected[2047]}`);
  });

  it("detail --json --monkeys adds the monkeys array", async () => {
    const { stdout } = await run([
      "referee",
      "detail",
      "--input",
      file,
      "--agent",
      "bob",
      "--epoch",
      "1",
      "--json",
      "--monkeys",
    ]);
    expect(JSON.parse(stdout).monkeys).to.have.length(2048);
  });

  it("leaderboard writes every agent's result and the mu table", async () => {
    const out = join(dir, "leaderboard.json");
    const { code, stdout } = await run([
      "referee",
      "leaderboard",
      "--input",
      file,
      "--epoch",
      "1",
      "--out",
      out,
    ]);
    expect(code).to.equal(0);
    expect(stdout).to.match(
      /^wrote .*leaderboard\.json: 2 agents \(0 ranked\), 1 mu entries, input 0x[0-9a-f]{64}\n$/,
    );
    const board = JSON.parse(readFileSync(out, "utf8"));
    expect(board.agents.map((a: { agent: string }) => a.agent)).to.have.members(["alice", "bob"]);
    expect(board.mu).to.deep.equal([
      { pair: "TSLA/USDG", horizon_h: 1, mu: (0.25 + (100 / 125 - 1)) / 2, slots: 2 },
    ]);
    expect(board.method).to.equal("referee/v1");
  });

  for (const [label, argv, code, message] of [
    [
      "a missing --agent",
      ["detail", "--input", "IN", "--epoch", "1"],
      2,
      "augur referee: --agent is required\n",
    ],
    [
      "an unknown option",
      ["detail", "--input", "IN", "--agent", "a", "--epoch", "1", "--x"],
      2,
      "augur referee: Unknown option '--x'",
    ],
    [
      "an unknown subcommand",
      ["rank"],
      2,
      "augur referee: unknown subcommand 'rank' (detail or leaderboard)\n",
    ],
    [
      "a wrong --epoch",
      ["detail", "--input", "IN", "--agent", "alice", "--epoch", "2"],
      1,
      "augur referee: --epoch 2 does not match the input's epoch 1\n",
    ],
    [
      "an unknown agent",
      ["detail", "--input", "IN", "--agent", "carol", "--epoch", "1"],
      1,
      'augur referee: agent "carol" has no predictions in the input\n',
    ],
    [
      "a missing file",
      ["leaderboard", "--input", "NOPE", "--epoch", "1"],
      1,
      "augur referee: cannot read NOPE: ENOENT\n",
    ],
  ] as const) {
    it(`refuses ${label} with one line and exit ${code}`, async () => {
      const args = argv.map((a) => (a === "IN" ? file : a));
      const result = await run(["referee", ...args]);
      expect(result.code).to.equal(code);
      expect(result.stdout).to.equal("");
      expect(result.stderr.startsWith(message)).to.equal(true, result.stderr);
      expect(result.stderr.trimEnd().split("\n")).to.have.length(1);
    });
  }

  it("names the field and row of a bad input file", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        ...INPUT,
        predictions: [...INPUT.predictions, { ...INPUT.predictions[0], size: 300 }],
      }),
    );
    const result = await run(["referee", "detail", "--input", bad, "--agent", "alice", "--epoch", "1"]);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal("augur referee: predictions[3].size: must be a number from 0 to 100\n");
  });

  it("runs as a real `npx augur referee detail` process", () => {
    const root = resolve(__dirname, "../../../../..");
    const child = spawnSync(
      "npx",
      ["augur", "referee", "detail", "--input", file, "--agent", "alice", "--epoch", "1", "--json"],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
    expect(child.status, child.stderr).to.equal(0);
    expect(JSON.parse(child.stdout)).to.include({ percentile: 87.5244140625, sum_r: 0.315 });
  });
});
