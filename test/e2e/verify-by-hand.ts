/**
 * docs/verify-by-hand.md's standalone Python 3 script (standard library only), run against a real
 * engine and chain: a hardhat node with the contracts deployed, `augur serve`, cycles until the
 * scores are anchored (scored-engine.ts). Also `augur verify` against the same chain with a wrong
 * registry and a dead node, which must each end in one line. A suite of engine.e2e.test.ts, on its
 * scored engine before any row is tampered with (one engine set-up for both).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { expect } from "chai";
import { runCli as augurMain } from "@augur/engine";
import { ROOT, run } from "./augur-process";
import { E2E_AGENTS, SEASON, type ScoredEngine } from "./scored-engine";

const SCRIPT = join(ROOT, "scripts/verify-by-hand/verify_score.py");

async function augurVerify(args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const sink = new PassThrough().on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await augurMain(["verify", ...args], { stdout: sink, stderr: sink, stdin: new PassThrough() });
  return { code, out };
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The suite, on the engine `scored()` gives once the enclosing suite has started it. */
export function verifyByHand(scored: () => ScoredEngine): void {
  describe("verify by hand: the Python script performs the seed's four steps against a running engine and chain", () => {
    let engine: ScoredEngine;
    before(() => {
      // python3 is on every machine this project supports; a missing one fails here, never skips.
      const version = spawnSync("python3", ["--version"], { encoding: "utf8" });
      expect(version.status, `python3 is required: ${version.error?.message ?? version.stderr}`).to.equal(0);
      engine = scored();
    });

    const python = (agent: string, extra: string[] = [], registry = engine.deployed.anchorRegistry) =>
      run(
        "python3",
        [
          SCRIPT,
          ...["--api", `${engine.api}/api/v1`, "--agent", agent, "--season", SEASON],
          ...["--rpc", engine.node.url, "--registry", registry, ...extra],
        ],
        process.env,
      );

    it("uses the rootOf selector docs/abi publishes", () => {
      const selector = /^ROOT_OF_SELECTOR = "([0-9a-f]{8})"$/m.exec(readFileSync(SCRIPT, "utf8"))?.[1];
      expect(readFileSync(join(ROOT, "docs/abi/README.md"), "utf8")).to.match(
        new RegExp(`\\| \`rootOf\\(uint64\\)\` +\\| \`0x${selector}\``),
      );
    });

    for (const agent of E2E_AGENTS) {
      it(`verifies ${agent.id}: all four steps pass, and the score it prints is the one the API serves`, async () => {
        const served = await engine.scoreOf(agent.id);
        const { code, out } = await python(agent.id, ["--confirmations", "1"]);
        expect(code, out).to.equal(0);
        for (const step of [1, 2, 3, 4]) expect(out).to.match(new RegExp(`^step ${step} passed`, "m"));
        expect(out).to.match(/^step 1 passed: .*the text is RFC 8785 canonical: True$/m);
        // first and last snapshot (and a creator input once the other agent has an anchored score)
        expect(out).to.match(/^step 2 passed: (\d+) of \1 input seals in anchors posted on chain$/m);
        expect(out).to.match(
          /^ {2}first snapshot 0x[0-9a-f]{8}: leaf \d+ of tree \d+, root on chain, \d+ confirmations$/m,
        );
        expect(out).to.contain(`verified: score ${served.score}\n`);
      });
    }

    it("fails when the chain does not hold the heads (a registry address that is another contract)", async () => {
      const { code, out } = await python(E2E_AGENTS[0].id, [], engine.deployed.callLedger);
      expect(code, out).to.equal(1);
    });

    it("asks for confirmations the anchors do not have yet: step 2 and 4 fail", async () => {
      const { code, out } = await python(E2E_AGENTS[0].id, ["--confirmations", "1000000"]);
      expect(code, out).to.equal(1);
      expect(out).to.match(/^step 2 FAILED/m);
      expect(out).to.match(/^step 4 FAILED: score: its anchor has \d+ confirmations, fewer than 1000000$/m);
    });

    it("augur verify: a --registry that is no AnchorRegistry, or no contract, is one line", async () => {
      const args = (registry: string) => [
        ...["--api", engine.api, "--agent", E2E_AGENTS[0].id, "--season", SEASON],
        ...["--rpc", engine.node.url, "--registry", registry],
      ];
      const ledger = await augurVerify(args(engine.deployed.callLedger));
      expect(ledger.code).to.equal(1);
      expect(ledger.out).to.equal(
        `augur verify: --registry ${engine.deployed.callLedger} is a contract but not an AnchorRegistry (anchorCount() fails)\n`,
      );
      const empty = "0x000000000000000000000000000000000000dEaD";
      const none = await augurVerify(args(empty));
      expect(none.out).to.equal(
        `augur verify: --registry ${empty} is not a contract on the chain at ${engine.node.url} (no code)\n`,
      );
    });

    it("augur verify: a chain node that is gone ends the run at once, in one line", async () => {
      const rpc = `http://127.0.0.1:${await deadPort()}`;
      const started = Date.now();
      const { code, out } = await augurVerify([
        ...["--api", engine.api, "--agent", E2E_AGENTS[0].id, "--season", SEASON],
        ...["--rpc", rpc, "--registry", engine.deployed.anchorRegistry, "--timeout", "2"],
      ]);
      expect(code).to.equal(1);
      expect(out).to.equal(`augur verify: ${rpc}: cannot reach the chain node (ECONNREFUSED)\n`);
      expect(Date.now() - started).to.be.below(10_000);
    });
  });
}
