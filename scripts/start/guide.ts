/** What the ready-to-paste commands need to know about the running demo. */
export interface GuideInput {
  readonly origin: string;
  readonly rpc: string;
  readonly registry: string;
  readonly seasonId: string;
  /** A house agent worth verifying (a caller: it has calls as well as trades). */
  readonly agentId: string;
  readonly agentAddress: string;
  readonly deploymentsDir: string;
  readonly user: { address: string; privateKey: string; eth: bigint; usdg: bigint };
}

/** A word as the shell reads it: bare when it is safe, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** 10000 → "10,000". */
function grouped(n: bigint): string {
  return n.toLocaleString("en-US");
}

/**
 * The block `npm start` prints once the demo is up, lines a shell takes as they are (`#` lines
 * are comments): a command to verify a score, the environment that points the Hardhat tasks at
 * this chain and its deployment, a funded account of the user's own and how to act as it, and
 * the command that registers an agent of theirs (docs/start.md#your-own-agent).
 */
export function formatGuide(g: GuideInput): string {
  const lines = [
    `# verify a score (once the table shows one for ${g.agentId}):`,
    `npx augur verify --api ${g.origin} --agent ${g.agentId} --season ${g.seasonId} --rpc ${g.rpc} --registry ${g.registry}`,
    "# point Hardhat tasks at this chain and its deployment, then e.g. read an agent's standing:",
    `export LOCALHOST_RPC_URL=${shellWord(g.rpc)} AUGUR_DEPLOYMENTS_DIR=${shellWord(g.deploymentsDir)}`,
    `npx hardhat call:status --network localhost --agent ${g.agentAddress}`,
    `# your account ${g.user.address}: ${grouped(g.user.eth)} ETH and ${grouped(g.user.usdg)} USDG, on this chain only`,
    `export AGENT_PRIVATE_KEY=${g.user.privateKey}`,
    "npx hardhat stake:deposit --network localhost --amount 100",
    "# your own agent in the current season (docs/start.md#your-own-agent):",
    `npx tsx scripts/start/agent.ts register --api ${g.origin} --agent my-agent`,
  ];
  return ["try it, in another shell in this directory:", ...lines.map((l) => `  ${l}`)].join("\n");
}
