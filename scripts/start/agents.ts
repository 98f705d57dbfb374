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
/**
 * The user's own account: the first the mnemonic derives past the node's 20, so no demo role
 * ever uses it; the demo gives it ETH and USDG (and prints its key) once the chain is up.
 */
export const USER_ACCOUNT = 20;
const FIRST_AGENT_ACCOUNT = 2;
const FIRST_CREATOR_ACCOUNT = 14;

export type DemoStyle = "momentum" | "mean-reversion" | "trend-following" | "discretionary";

/** The window of every demo call: 4 h, so a round gathers each caller's calls of 4 hours. */
export const CALL_WINDOW = 4 * 3600;
/**
 * Base of the callers' fixed seeds (agent i draws from `CALL_SEED + i`). Any seed gives a flip
 * now and then (about one round in 15–20); this one shows one on the first day, hours 12–15.
 */
const CALL_SEED = 303;

export interface DemoAgent {
  readonly id: string;
  readonly style: DemoStyle;
  readonly creatorName: string;
  readonly key: HDNodeWallet;
  readonly creatorKey: HDNodeWallet;
  /** The stock it trades (symbol of a replica pool). */
  readonly asset: string;
  /**
   * The stock it commits a call on every hour, never the one it trades (its own swap would move
   * the price its call settles on); undefined for an agent that only trades.
   */
  readonly calls: string | undefined;
  /** Seeds the fixed pseudo-random stream its calls draw from, so runs tell the same story. */
  readonly seed: number;
}

// Three creators, each with its own house style; agents are dealt round-robin so every creator
// has at least one sibling once there are 4+ agents (the creator term needs siblings).
const CREATORS = [
  { name: "northwind", styles: ["momentum", "trend-following"] },
  { name: "quarry", styles: ["mean-reversion", "discretionary"] },
  { name: "lumen", styles: ["trend-following", "momentum"] },
] as const satisfies ReadonlyArray<{ name: string; styles: readonly DemoStyle[] }>;

/** Thrown when the replica has too few stocks to keep the callers off the stock they call. */
export class DemoStocksError extends Error {
  override readonly name = "DemoStocksError";
}

/** The demo creators' names by address, as `augur serve --creators` takes them (the site shows these). */
export function demoCreators(): Record<string, string> {
  return Object.fromEntries(
    CREATORS.map((c, i) => [c.name, nodeAccount(FIRST_CREATOR_ACCOUNT + i).address.toLowerCase()]),
  );
}

/**
 * The demo's agents. Every other agent calls (with 6, one per creator: the ledger's quorum of 3
 * voters, and a contrast with those that only trade), and every caller calls the same stock, the
 * replica's last: one market, so the calls of a 4-hour slot vote in one round. Callers trade the
 * other stocks; the agents that only trade start with the called stock, so someone trades it.
 */
export function demoAgents(count: number, symbols: readonly string[]): DemoAgent[] {
  if (symbols.length < 2) {
    throw new DemoStocksError(
      `the demo needs 2 or more stocks (one called, one traded), got ${symbols.length}`,
    );
  }
  const called = symbols.at(-1)!;
  const traded = symbols.slice(0, -1);
  return Array.from({ length: count }, (_, i) => {
    const creatorIndex = i % CREATORS.length;
    const creator = CREATORS[creatorIndex]!;
    const round = Math.floor(i / CREATORS.length);
    const style = creator.styles[round % creator.styles.length]!;
    const caller = i % 2 === 0;
    const k = Math.floor(i / 2); // its place among the callers, or among the others
    return {
      id: `${creator.name}-${style.split("-")[0]}-${round + 1}`,
      style,
      creatorName: creator.name,
      key: nodeAccount(FIRST_AGENT_ACCOUNT + i),
      creatorKey: nodeAccount(FIRST_CREATOR_ACCOUNT + creatorIndex),
      asset: caller ? traded[k % traded.length]! : symbols[(symbols.length - 1 + k) % symbols.length]!,
      calls: caller ? called : undefined,
      seed: CALL_SEED + i,
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

/** A call's terms as the demo draws them. */
export interface DemoCall {
  readonly direction: "up" | "down";
  readonly confidenceBps: number;
}

/**
 * A caller's call on the stock it calls, from that stock's last two prices: its style reads the
 * move (as `decide` does for its own stock), then its fixed-seed stream has second thoughts one
 * time in three (and picks a side when the style reads nothing), and draws a confidence of
 * 55–90 %. Callers of different styles and seeds disagree now and then, so some rounds split,
 * some never reach consensus and some flip. Always three draws, so the stream stays in step.
 */
export function callOf(
  agent: DemoAgent,
  hour: number,
  previous: bigint,
  current: bigint,
  random: () => number,
): DemoCall {
  const read = decide(agent, hour, previous, current);
  const doubt = random() < 1 / 3;
  const coin: DemoCall["direction"] = random() < 0.5 ? "up" : "down";
  const confidenceBps = 5500 + Math.floor(random() * 36) * 100;
  if (read === "hold") return { direction: coin, confidenceBps };
  const styled = read === "buy" ? "up" : "down";
  return { direction: doubt ? (styled === "up" ? "down" : "up") : styled, confidenceBps };
}
