/**
 * Your own agent in the running demo (docs/start.md#your-own-agent): registers it with the
 * demo's engine for the current season, binding the key's own account as its wallet, and reports
 * an hour (a signed Decision; its snapshots and trades the engine measures from the wallet). Keys and chain come from the same
 * environment as the Hardhat tasks: AGENT_PRIVATE_KEY (CREATOR_PRIVATE_KEY, default the same
 * key), LOCALHOST_RPC_URL and AUGUR_DEPLOYMENTS_DIR, as `npm start` prints them.
 *
 *   npx tsx scripts/start/agent.ts register --api <origin> --agent <id> [--style <style>] [--season <id>]
 *   npx tsx scripts/start/agent.ts report --api <origin> --agent <id> [--action buy|sell|hold] [--asset <symbol>] [--season <id>]
 */
import { parseArgs } from "node:util";
import { JsonRpcProvider, Wallet } from "ethers";
import { signRecord, signRegistration, type SignedRecord } from "@augur/agent";
import { readRecord } from "../../deploy/record";

const STYLES = ["momentum", "mean-reversion", "trend-following", "discretionary"];
const ACTIONS = ["buy", "sell", "hold"];

class AgentUsageError extends Error {
  override readonly name = "AgentUsageError";
}

function env(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new AgentUsageError(`${name} is not set (npm start prints the values to use)`);
  return value;
}

function oneOf(flag: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value))
    throw new AgentUsageError(`${flag} must be one of ${allowed.join(", ")}, not '${value}'`);
  return value;
}

/** GET or POST against the demo's API; a refusal becomes one line with the engine's message. */
async function api(origin: string, path: string, body?: SignedRecord): Promise<Record<string, unknown>> {
  const base = origin.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const response = await fetch(`${base}/api/v1${path}`, {
    ...(body
      ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
      : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new AgentUsageError(`the engine answered HTTP ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The season records go to: --season, else the newest season still taking records. */
async function seasonOf(origin: string, flag: string | undefined, now: number): Promise<string> {
  if (flag) return flag;
  const { seasons } = (await api(origin, "/seasons")) as {
    seasons: Array<{ id: string; startsAt: number; endsAt: number; closedAt: number | null }>;
  };
  const open = seasons.find((s) => s.startsAt <= now && now < Math.min(s.endsAt, s.closedAt ?? Infinity));
  if (!open) throw new AgentUsageError("no season is taking records right now (is the demo running?)");
  return open.id;
}

async function main(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  if (command !== "register" && command !== "report") {
    throw new AgentUsageError("usage: agent.ts register|report --api <origin> --agent <id> [options]");
  }
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      api: { type: "string" },
      agent: { type: "string" },
      season: { type: "string" },
      style: { type: "string", default: "discretionary" },
      action: { type: "string", default: "hold" },
      asset: { type: "string" },
    },
  });
  if (!values.api) throw new AgentUsageError("--api <origin> is required (the api line npm start printed)");
  if (!values.agent || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(values.agent)) {
    throw new AgentUsageError("--agent must be an id of lower-case letters, digits and dashes");
  }
  const provider = new JsonRpcProvider(env("LOCALHOST_RPC_URL"), undefined, { staticNetwork: true });
  try {
    const agentKey = new Wallet(env("AGENT_PRIVATE_KEY"), provider);
    const creatorKey = new Wallet(process.env.CREATOR_PRIVATE_KEY?.trim() || agentKey.privateKey, provider);
    const chainId = Number((await provider.getNetwork()).chainId);
    const now = (await provider.getBlock("latest"))!.timestamp;
    const seasonId = await seasonOf(values.api, values.season, now);
    const agentId = values.agent;

    if (command === "register") {
      const style = oneOf("--style", values.style, STYLES);
      const signed = await signRegistration(agentKey, creatorKey, chainId, {
        agentId,
        seasonId,
        creator: creatorKey.address,
        agentKey: agentKey.address,
        style,
        registeredAt: now,
        wallet: agentKey.address, // the engine measures this account's snapshots and trades
      });
      const { seal } = await api(values.api, "/records", signed);
      return `registered ${agentId} (${style}, key ${agentKey.address}) for season ${seasonId}: seal ${String(seal)}`;
    }

    const deployment = readRecord("localhost", chainId);
    const ledgerAddress = deployment.contracts.CallLedger?.address;
    if (!ledgerAddress)
      throw new AgentUsageError("no demo deployment in AUGUR_DEPLOYMENTS_DIR (localhost.json)");
    const assets = Object.fromEntries(deployment.stocks.map((s) => [s.symbol, s.address]));
    const symbol = values.asset ?? deployment.stocks[0]!.symbol;
    const asset = assets[symbol];
    if (!asset) throw new AgentUsageError(`--asset must be one of ${Object.keys(assets).join(", ")}`);
    const action = oneOf("--action", values.action, ACTIONS);

    const base = { agentId, seasonId };
    await api(
      values.api,
      "/records",
      await signRecord(agentKey, chainId, "Decision", {
        ...base,
        decidedAt: now,
        asset: asset.toLowerCase(),
        action,
        source: "decider",
        confidenceBps: 6000,
        note: `by hand: ${action} ${symbol}`,
      }),
    );
    return `reported ${agentId}'s hour in season ${seasonId}: ${action} ${symbol} (its NAV the engine measures from ${agentKey.address} each hour)`;
  } finally {
    provider.destroy();
  }
}

main(process.argv.slice(2)).then(
  (line) => process.stdout.write(`${line}\n`),
  (error: unknown) => {
    process.stderr.write(`agent.ts: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode =
      error instanceof AgentUsageError ||
      (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? 2
        : 1;
  },
);
