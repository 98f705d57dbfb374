import { HDNodeWallet } from "ethers";

// Hardhat's published development mnemonic: `hardhat node` funds the first 20 accounts it
// derives, on this throw-away local chain only. Never use these keys anywhere real.
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";

/** Account `index` of the local node, with its private key (the demo signs EIP-712 records). */
export function nodeAccount(index: number): HDNodeWallet {
  return HDNodeWallet.fromPhrase(HARDHAT_MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`);
}

/** Who holds which node account: #0 deploys (replica owner), #1 is the replica's trader. */
export const KEEPER_ACCOUNT = 19;
const FIRST_AGENT_ACCOUNT = 2;
const FIRST_CREATOR_ACCOUNT = 14;

export type DemoStyle = "momentum" | "mean-reversion" | "trend-following" | "discretionary";

export interface DemoAgent {
  readonly id: string;
  readonly style: DemoStyle;
  readonly creatorName: string;
  readonly key: HDNodeWallet;
  readonly creatorKey: HDNodeWallet;
  /** The stock it trades (symbol of a replica pool). */
  readonly asset: string;
  /** Whether it also commits directional calls on the CallLedger. */
  readonly caller: boolean;
}

// Three creators, each with its own house style; agents are dealt round-robin so every creator
// has at least one sibling once there are 4+ agents (the creator term needs siblings).
const CREATORS = [
  { name: "northwind", styles: ["momentum", "trend-following"] },
  { name: "quarry", styles: ["mean-reversion", "discretionary"] },
  { name: "lumen", styles: ["trend-following", "momentum"] },
] as const satisfies ReadonlyArray<{ name: string; styles: readonly DemoStyle[] }>;

export function demoAgents(count: number, symbols: readonly string[]): DemoAgent[] {
  return Array.from({ length: count }, (_, i) => {
    const creatorIndex = i % CREATORS.length;
    const creator = CREATORS[creatorIndex]!;
    const round = Math.floor(i / CREATORS.length);
    const style = creator.styles[round % creator.styles.length]!;
    return {
      id: `${creator.name}-${style.split("-")[0]}-${round + 1}`,
      style,
      creatorName: creator.name,
      key: nodeAccount(FIRST_AGENT_ACCOUNT + i),
      creatorKey: nodeAccount(FIRST_CREATOR_ACCOUNT + creatorIndex),
      asset: symbols[i % symbols.length]!,
      // Every other agent calls: enough voters per round for consensus, and a contrast.
      caller: i % 2 === 0,
    };
  });
}

/**
 * What an agent decides this hour from the last two prices of its stock (18 decimals) and a
 * deterministic coin (so two runs of the demo tell the same story).
 */
export function decide(
  agent: DemoAgent,
  hour: number,
  previous: bigint,
  current: bigint,
): "buy" | "sell" | "hold" {
  const coin = (hour * 7 + agent.id.length * 13) % 5;
  const rose = current > previous;
  // A flat price gives the trend styles no signal: they open a starter position now and then,
  // or two of them on the same idle pool would wait for each other forever.
  if (current === previous && agent.style !== "discretionary") {
    return agent.style !== "mean-reversion" && coin < 3 ? "buy" : "hold";
  }
  switch (agent.style) {
    case "momentum":
      return rose ? "buy" : "sell";
    case "trend-following":
      return coin === 0 ? "hold" : rose ? "buy" : "sell";
    case "mean-reversion":
      return rose ? "sell" : "buy";
    case "discretionary":
      return coin < 2 ? "buy" : coin < 4 ? "sell" : "hold";
  }
}
