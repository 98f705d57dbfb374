import { parseArgs } from "node:util";
import { isAddress } from "ethers";
import { type Command, UsageError } from "../command";
import { registryHeadChecker } from "../../verify/registry";
import { verifyScore, type HeadChecker } from "../../verify/verify-score";

const usage = `Usage: augur verify --api URL --agent ID --season S [--rpc URL --registry ADDRESS]

Runs the four recompute steps of augur-score/v1 against a running engine, printing each one:
  1  sha256 of the manifest equals the score's seal
  2  each snapshot and creator-input seal it names sits in a mined anchor
     (GET /api/v1/anchors/leaves/:seal; proof checked locally, and on chain with --rpc/--registry)
  3  the named formula version, over the manifest's measured values, reproduces every output
  4  the score's own seal sits in an anchor later than its inputs'
Exits 0 when all four pass, 1 when any fails.

Options:
  --api URL            the engine, e.g. http://127.0.0.1:8080
  --agent ID           the agent
  --season S           the season id
  --rpc URL            a JSON-RPC endpoint of the chain holding AnchorRegistry (with --registry)
  --registry ADDRESS   the AnchorRegistry address (with --rpc)`;

/** For tests: swaps the HTTP client and the on-chain head checker. */
export interface VerifyDependencies {
  fetch?: typeof fetch;
  headChecker?: (rpc: string, registry: string) => HeadChecker;
}
export const dependencies: VerifyDependencies = {};

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        api: { type: "string" },
        agent: { type: "string" },
        season: { type: "string" },
        rpc: { type: "string" },
        registry: { type: "string" },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const command: Command = {
  name: "verify",
  summary: "Recompute and check one agent's sealed score against the engine and the chain",
  usage,
  async run(argv, io) {
    const { api, agent, season, rpc, registry } = parse(argv);
    if (!api || !agent || !season) throw new UsageError("--api, --agent and --season are required");
    if (!/^https?:\/\//.test(api)) throw new UsageError(`--api must be an http(s) URL, got ${api}`);
    if ((rpc === undefined) !== (registry === undefined))
      throw new UsageError("--rpc and --registry go together");
    if (registry !== undefined && !isAddress(registry))
      throw new UsageError(`--registry must be an address, got ${registry}`);
    const chain =
      rpc !== undefined && registry !== undefined
        ? (dependencies.headChecker ?? registryHeadChecker)(rpc, registry)
        : undefined;

    const report = await verifyScore({
      api: api.replace(/\/+$/, ""),
      agent,
      season,
      chain,
      fetch: dependencies.fetch,
    });
    io.stdout.write(`augur verify: agent ${agent}, season ${season}, seal ${report.seal}\n`);
    for (const step of report.steps) {
      io.stdout.write(`step ${step.step} ${step.passed ? "passed" : "FAILED"}: ${step.summary}\n`);
      for (const line of step.details) io.stdout.write(`  ${line}\n`);
    }
    io.stdout.write(
      report.passed
        ? `verified: score ${JSON.stringify(report.score)}\n`
        : `not verified: ${report.steps.filter((s) => !s.passed).length} of 4 steps failed\n`,
    );
    return report.passed ? 0 : 1;
  },
};
