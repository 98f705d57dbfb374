import { expect } from "chai";
import hre from "hardhat";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TASKS = [
  "augur:deploy",
  "call:commit",
  "call:resume",
  "call:reveal",
  "call:settle",
  "call:expire",
  "call:status",
  "stake:deposit",
  "stake:withdraw",
  "consensus:show",
  "oracle:set-pool",
  "oracle:push",
  "anchor:post",
  "replica:split",
  "vesting:burn-unvested",
];

describe("the tasks from the command line", function () {
  it("every task and every one of its flags has a description for --help, and --json", function () {
    for (const name of TASKS) {
      const task = hre.tasks[name];
      expect(task, name).to.not.equal(undefined);
      expect(task!.description, name).to.have.length.greaterThan(20);
      for (const [param, definition] of Object.entries(task!.paramDefinitions)) {
        expect(definition.description, `${name} --${param}`).to.have.length.greaterThan(5);
      }
      expect(task!.paramDefinitions, name).to.have.property("json");
    }
  });

  it("a refusal is one line on stderr and a non-zero exit code", function () {
    const result = spawnSync(
      "npx",
      [
        "hardhat",
        "call:commit",
        "--asset",
        "NVDA",
        "--window",
        "3600",
        "--direction",
        "up",
        "--confidence",
        "7000",
      ],
      {
        cwd: hre.config.paths.root,
        // CI=true makes Hardhat colour its output even into a pipe; the assertion reads plain text.
        env: {
          ...process.env,
          FORCE_COLOR: "0",
          NO_COLOR: "1",
          AUGUR_DEPLOYMENTS_DIR: mkdtempSync(join(tmpdir(), "augur-none-")),
        },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).to.equal(1);
    const errorLines = result.stderr.split("\n").filter((l) => l.includes("Error"));
    expect(errorLines).to.have.length(1);
    expect(errorLines[0]).to.match(
      /Error in plugin augur: BadArgumentError: --network hardhat: no deployment recorded in .*: run npx hardhat augur:deploy --network hardhat/,
    );
    expect(result.stderr).to.not.match(/\n\s+at /);
  });
});
