import { join } from "node:path";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import {
  commitCall,
  connectLedger,
  depositStake,
  revealCall,
  SaltVault,
  signRecord,
  signRegistration,
  type LedgerContext,
  type RecordType,
} from "@augur/agent";
import { parseUnits } from "ethers";
import { seededRandom } from "@augur/scorer/src/referee/synthetic-input";
import type { Replica } from "../replica/types";
import { CALL_WINDOW, callOf, decide, type DemoAgent } from "./agents";

/** What each demo agent starts with, and stakes when it calls (the ledger's minimum is 100), in whole USDG. */
const STARTING_USDG = "250000";
const STAKE = "500";
/** Below this much USDG a buy is a hold. */
const MIN_BUY = "1000";

/** Thrown when the engine refuses a record: the demo's own records must always be accepted. */
export class RecordRefusedError extends Error {
  override readonly name = "RecordRefusedError";
  constructor(type: string, agentId: string, status: number, body: string) {
    super(`the engine refused ${agentId}'s ${type} (HTTP ${status}): ${body}`);
  }
}

export interface Engine {
  readonly apiUrl: string;
  readonly chainId: number;
  /** The season records go to (the current one: it changes when a season ends). */
  readonly seasonId: string;
  /** Chain time, unix seconds: every record is stamped with it. */
  readonly now: () => number;
}

/** One demo agent acting on the chain and posting its records to the engine, like a real one. */
export class DemoTrader {
  private lastPrice = 0n;
  /** The called stock's price when this agent last called it. */
  private lastCalledPrice = 0n;
  private readonly random: () => number;
  /** The season this agent last registered for. */
  private registeredFor: string | undefined;

  private constructor(
    readonly agent: DemoAgent,
    private readonly signer: HardhatEthersSigner,
    private readonly replica: Replica,
    readonly ledger: LedgerContext,
    private readonly vault: SaltVault,
    private readonly engine: Engine,
  ) {
    this.random = seededRandom(agent.seed);
  }

  static async open(
    agent: DemoAgent,
    signer: HardhatEthersSigner,
    replica: Replica,
    ledgerAddress: string,
    assets: Record<string, string>,
    vaultDir: string,
    engine: Engine,
  ): Promise<DemoTrader> {
    const ledger = await connectLedger(signer, ledgerAddress, assets);
    const vault = SaltVault.open(join(vaultDir, `${agent.id}.json`));
    return new DemoTrader(agent, signer, replica, ledger, vault, engine);
  }

  private get token(): string {
    return this.replica.stock(this.agent.asset).address;
  }

  /** Whole USDG in raw units, at the decimals read from the token. */
  private usdg(whole: string): bigint {
    return parseUnits(whole, this.replica.usdgDecimals);
  }

  /** Registers for the engine's current season (agent and creator both sign). */
  async register(): Promise<void> {
    const { agent, engine } = this;
    await this.post(
      await signRegistration(agent.key, agent.creatorKey, engine.chainId, {
        agentId: agent.id,
        seasonId: engine.seasonId,
        creator: agent.creatorKey.address,
        agentKey: agent.key.address,
        style: agent.style,
        registeredAt: engine.now(),
        // the account it trades from: the engine measures its snapshots and trades there
        wallet: agent.key.address,
      }),
    );
    this.registeredFor = engine.seasonId;
  }

  /** Registers, funds the account, stakes (once: the stake and the book carry over seasons). */
  async join(): Promise<void> {
    const { agent } = this;
    await this.register();
    await this.replica.fund(agent.key.address, "USDG", this.usdg(STARTING_USDG));
    if (agent.calls) await depositStake(this.ledger, this.usdg(STAKE));
    this.lastPrice = await this.oraclePrice();
    if (agent.calls) this.lastCalledPrice = await this.oraclePrice(agent.calls);
  }

  /**
   * One simulated hour: decide and trade; a caller also commits and reveals a call. The engine
   * measures its snapshots and trades from its wallet: it posts neither.
   */
  async hour(hour: number): Promise<void> {
    const { agent, engine } = this;
    // A new season opened since its last record: it registers for it first.
    if (this.registeredFor !== engine.seasonId) await this.register();
    const price = await this.oraclePrice();
    let action = decide(agent, hour, this.lastPrice, price);
    this.lastPrice = price;
    const shares = (await this.replica.stock(agent.asset).token.balanceOf(agent.key.address)) as bigint;
    const cash = (await this.replica.usdg.balanceOf(agent.key.address)) as bigint;
    if (action === "sell" && shares === 0n) action = "hold"; // nothing to sell yet
    // Nothing left to buy with: it trades its own book and is never topped up.
    if (action === "buy" && cash < this.usdg(MIN_BUY)) action = "hold";
    const confidenceBps = 5500 + ((hour * 37 + agent.id.length * 101) % 35) * 100;
    await this.record("Decision", {
      decidedAt: engine.now(),
      asset: this.token.toLowerCase(),
      action,
      source: "decider",
      confidenceBps,
      note: `${agent.style}: ${action} ${agent.asset} at ${formatUsdg(price)} USDG`,
    });
    if (action !== "hold") await this.trade(action, action === "buy" ? cash : shares, hour);
    if (agent.calls) await this.call(agent.calls, hour);
  }

  /**
   * Commits and reveals this hour's call on the stock it calls (every hour, so every caller votes
   * in each round of that market).
   */
  private async call(symbol: string, hour: number): Promise<void> {
    const price = await this.oraclePrice(symbol);
    const { direction, confidenceBps } = callOf(this.agent, hour, this.lastCalledPrice, price, this.random);
    this.lastCalledPrice = price;
    const { callId } = await commitCall(this.ledger, this.vault, {
      asset: symbol,
      window: CALL_WINDOW,
      direction,
      confidenceBps,
    });
    // Automine: the reveal's block is already later than the commit's.
    await revealCall(this.ledger, this.vault, callId); // the engine's settler settles it after closesAt
  }

  /** Buys with up to its cash (4,000–13,000 USDG), or sells 35 % of its shares. */
  private async trade(side: "buy" | "sell", held: bigint, hour: number): Promise<void> {
    const size = this.usdg(String(4_000 + ((hour * 2_357) % 9_000)));
    const amountIn = side === "buy" ? (size < held ? size : held) : (held * 35n) / 100n;
    await this.replica.swap(this.agent.asset, side, amountIn, {
      from: this.signer, // the agent's own node account, its bound wallet
    });
  }

  /** PriceOracle's price of `symbol` (its own stock by default), USDG per share, 18 decimals. */
  private async oraclePrice(symbol = this.agent.asset): Promise<bigint> {
    return (await this.ledger.oracle.getFunction("price")(this.replica.stock(symbol).address)) as bigint;
  }

  private async record(type: RecordType, fields: Record<string, unknown>): Promise<void> {
    const message = { agentId: this.agent.id, seasonId: this.engine.seasonId, ...fields };
    await this.post(await signRecord(this.agent.key, this.engine.chainId, type, message));
  }

  private async post(signed: { type: string; message: Record<string, unknown> }): Promise<void> {
    const send = () =>
      fetch(`${this.engine.apiUrl}/records`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(signed),
      });
    let response: Response;
    try {
      response = await send();
    } catch {
      // A kept-alive socket the server closed as it was reused (its 5 s idle timeout, which a
      // loaded machine overshoots): once more on a new one. Safe: the same record twice is one seal.
      response = await send();
    }
    if (response.status !== 201 && response.status !== 200) {
      throw new RecordRefusedError(signed.type, this.agent.id, response.status, await response.text());
    }
  }
}

/** 18-decimal USDG per share, with two decimals. */
export function formatUsdg(wad: bigint): string {
  const cents = wad / 10n ** 16n;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}
