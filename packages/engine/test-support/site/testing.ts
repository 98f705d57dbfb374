import type { Wallet } from "ethers";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app";
import { storeSealedCloses } from "../../src/closes/cache";
import { type SealedClose, sealClose } from "../../src/closes/record";
import type { AnchorReceipt, Keeper } from "../../src/keeper/seam";
import { AugurScorer } from "../../src/cycle/augur-scorer";
import { runCycle } from "../../src/cycle/run";
import { anchorStep, refereeStep, riskStep, scoreStep } from "../../src/cycle/steps";
import type { CallRecordBody } from "@augur/records";
import { appendEngineRecords, type EngineRecord } from "../../src/store/append";
import { ingestRecord, type Submission } from "../../src/records/ingest";
import { addTestSeason, SEASON_START, sign, TEST_CHAIN_ID, testWallet } from "../records/testing";
import { openStore, type Store } from "../../src/store/open";
import { insertSeason } from "../../src/store/queries/seasons";

/**
 * A seeded store for the site's tests: a season with six agents whose records go through the
 * engine's real ingestion (signed EIP-712), calls and consensus events as the indexer writes
 * them, the referee's hourly closes as the cycle seals them, and two hourly cycles (anchor → score
 * and referee → anchor) so every score and the referee board are sealed and anchored.
 */
export const SITE_SEASON = "s1";
const DAY = 86_400;
const HOUR = 3600;
/** The fixture's clock: eight days into the season. */
export const SITE_NOW = SEASON_START + 8 * DAY + 1800;

export const TSLA = "0x1111111111111111111111111111111111111111";
export const AAPL = "0x2222222222222222222222222222222222222222";
/** The seeded season's asset directory (ticker → address), as `augur serve` takes it from AUGUR_ASSETS. */
export const SITE_ASSETS = { TSLA, AAPL } as const;
/** The address (lowercase, as the store keeps it) the fixture's creator `c1`…`c5` registers with. */
export function siteCreator(id: string): string {
  return testWallet(`site creator ${id}`).address.toLowerCase();
}
/** The seeded creator directory (name → address), as `augur serve` takes AUGUR_CREATORS; c3…c5 unnamed. */
export const SITE_CREATORS: Readonly<Record<string, string>> = {
  "Ada Labs": siteCreator("c1"),
  "cy-house_2.0": siteCreator("c2"),
};
const LEDGER = "0x3333333333333333333333333333333333333333";
const ORACLE = "0x4444444444444444444444444444444444444444";

interface AgentPlan {
  readonly id: string;
  readonly creator: string;
  readonly style: string;
  readonly navs: readonly number[];
  readonly decisions: number;
  readonly trades: readonly { side: "buy" | "sell"; qty: number }[];
  readonly calls: number;
}

/** Who is who in the fixture, for assertions. */
export const SITE_AGENTS = {
  ranked: ["ada", "bob", "cy"],
  tooFewSnapshots: "dee",
  tooFewDecisions: "eve",
  /** One snapshot and a short position: under 50 % of the risk weight is measurable. */
  riskUnmeasurable: "fay",
} as const;

const PLANS: readonly AgentPlan[] = [
  {
    id: "ada",
    creator: "c1",
    style: "momentum",
    navs: [1000, 1010, 1030, 1020, 1045, 1060, 1080],
    decisions: 7,
    trades: [
      { side: "buy", qty: 2 },
      { side: "buy", qty: 1 },
      { side: "sell", qty: 2 },
      { side: "buy", qty: 1 },
    ],
    calls: 12,
  },
  {
    id: "bob",
    creator: "c1",
    style: "trend-following",
    navs: [1000, 990, 1005, 1012, 1020],
    decisions: 6,
    trades: [
      { side: "buy", qty: 3 },
      { side: "sell", qty: 1 },
    ],
    calls: 4,
  },
  {
    id: "cy",
    creator: "c2",
    style: "mean-reversion",
    navs: [1000, 980, 970, 990],
    decisions: 5,
    trades: [{ side: "buy", qty: 1 }],
    calls: 6,
  },
  {
    id: "dee",
    creator: "c3",
    style: "market-neutral",
    navs: [1000, 1001],
    decisions: 6,
    trades: [],
    calls: 0,
  },
  {
    id: "eve",
    creator: "c4",
    style: "discretionary",
    navs: [1000, 1003, 1002, 1008],
    decisions: 2,
    trades: [{ side: "buy", qty: 1 }],
    calls: 2,
  },
  {
    id: "fay",
    creator: "c5",
    style: "momentum",
    navs: [1000],
    decisions: 1,
    trades: [{ side: "sell", qty: 1 }],
    calls: 0,
  },
];

/** A deterministic hourly price path per asset (USDG per token). */
export function priceAt(asset: string, hour: number): number {
  const base = asset === TSLA ? 180 : 230;
  return Math.round(base * (1 + 0.03 * Math.sin(hour / 7) + 0.0004 * (hour % 24)) * 1e4) / 1e4;
}

const units18 = (x: number) => (BigInt(Math.round(x * 1e6)) * 10n ** 12n).toString();
const usdg = (x: number) => BigInt(Math.round(x * 1e6)).toString();

async function seedAgent(store: Store, plan: AgentPlan, now: number): Promise<void> {
  const ctx = { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity };
  const key: Wallet = testWallet(`site agent ${plan.id}`);
  const creator = testWallet(`site creator ${plan.creator}`);
  const put = async (type: Submission["type"], message: Record<string, string | number>, cosigner?: Wallet) =>
    ingestRecord(store, await sign(type as never, message, key, cosigner), ctx);
  const base = { agentId: plan.id, seasonId: SITE_SEASON };
  await put(
    "Registration",
    {
      ...base,
      creator: creator.address,
      agentKey: key.address,
      style: plan.style,
      registeredAt: SEASON_START - HOUR,
    },
    creator,
  );
  for (const [i, nav] of plan.navs.entries()) {
    await put("Snapshot", {
      ...base,
      takenAt: SEASON_START + i * DAY + 600,
      nav: usdg(nav),
      flow: "0",
      investedBps: 6000,
    });
  }
  for (let i = 0; i < plan.decisions; i++) {
    await put("Decision", {
      ...base,
      decidedAt: SEASON_START + i * DAY + 3 * HOUR,
      asset: TSLA,
      action: i % 2 === 0 ? "buy" : "sell",
      source: "decider",
      confidenceBps: 6000,
      note: `plan step ${i}`,
    });
  }
  for (const [i, t] of plan.trades.entries()) {
    const hour = Math.floor((SEASON_START + i * DAY + 4 * HOUR) / HOUR);
    await put("Trade", {
      ...base,
      executedAt: hour * HOUR,
      asset: TSLA,
      side: t.side,
      quantity: units18(t.qty),
      price: units18(priceAt(TSLA, hour)),
      txHash: `0x${(i + 1).toString(16).padStart(2, "0").repeat(32)}`,
    });
  }
}

/** Calls as the chain indexer seals them from CallLedger (engine records, not signed by agents). */
async function seedCalls(store: Store, now: number): Promise<void> {
  const records: EngineRecord[] = [];
  for (const plan of PLANS) {
    const agent = testWallet(`site agent ${plan.id}`).address.toLowerCase();
    for (let i = 0; i < plan.calls; i++) {
      const asset = i % 3 === 0 ? AAPL : TSLA;
      const revealHour = Math.floor(SEASON_START / HOUR) + 5 + i * 11 + plan.id.length;
      const windowHours = 1 + (i % 3);
      const direction = (i + plan.id.charCodeAt(0)) % 2 === 0 ? "up" : "down";
      const entry = priceAt(asset, revealHour);
      const exit = priceAt(asset, revealHour + windowHours);
      const moved = Math.sign(exit - entry);
      const outcome = moved === 0 ? "void" : moved > 0 === (direction === "up") ? "hit" : "miss";
      const confidenceBps = 5500 + 500 * (i % 5);
      const closesAt = revealHour * HOUR + 120 + windowHours * HOUR; // revealed 2 minutes past the hour
      const body: CallRecordBody = {
        format: "augur-call/v1",
        chainId: TEST_CHAIN_ID,
        ledger: LEDGER,
        callId: `${plan.id.length * 100 + i}`,
        agent,
        agentId: plan.id,
        seasonId: SITE_SEASON,
        outcome,
        confidenceBps,
        resolvedAt: closesAt + 60,
        resolveTx: `0x${(i + 1).toString(16).padStart(4, "0").repeat(16)}`,
        reveal: {
          asset,
          window: windowHours * HOUR,
          direction,
          confidenceBps,
          entryPrice: units18(entry),
          closesAt,
          vote: "1",
          revealTx: `0x${(i + 1).toString(16).padStart(4, "f").repeat(16)}`,
        },
        exitPrice: units18(exit),
      };
      records.push({ kind: "call", agentId: plan.id, seasonId: SITE_SEASON, body });
    }
  }
  await store.db.transaction().execute((trx) => appendEngineRecords(trx, records, now));
}

/** The referee's hourly closes of both assets from the season's start to the fixture's clock. */
async function seedCloses(store: Store, now: number): Promise<void> {
  const closes: SealedClose[] = [];
  for (const asset of [TSLA, AAPL]) {
    for (let hour = Math.ceil(SEASON_START / HOUR); hour * HOUR <= now; hour++) {
      const price18 = BigInt(units18(priceAt(asset, hour)));
      closes.push(
        sealClose({
          chainId: TEST_CHAIN_ID,
          oracle: ORACLE,
          asset,
          at: hour * HOUR,
          price18,
          twapWindow: 300,
        }),
      );
    }
  }
  await storeSealedCloses(store, closes, now);
}

async function seedConsensus(store: Store): Promise<void> {
  const rows = [];
  for (const [m, asset] of [TSLA, AAPL].entries()) {
    const window = m === 0 ? HOUR : 4 * HOUR;
    for (let k = 0; k < 3; k++) {
      const up = BigInt(3 + k) * 10n ** 18n;
      const down = 10n ** 18n;
      rows.push({
        asset,
        window_seconds: window,
        bucket: Math.floor(SEASON_START / window) + 10 + k,
        direction: k === 1 ? ("down" as const) : ("up" as const),
        strength_bps: 7000 + 500 * k,
        voters: 3 + k,
        up_weight: (k === 1 ? down : up).toString(),
        down_weight: (k === 1 ? up : down).toString(),
        block_number: 1000 + 10 * m + k,
        block_hash: `0x${"ab".repeat(32)}`,
        tx_hash: `0x${(m * 3 + k + 1).toString(16).padStart(2, "0").repeat(32)}`,
        log_index: k,
        block_timestamp: SEASON_START + (10 + k) * window,
      });
    }
  }
  await store.db.insertInto("consensus_rounds").values(rows).execute();
}

/** Mines every head it is asked for at once (what a keeper does on a local chain); `index`: the next anchor's. */
export function instantKeeper(index = 0): Keeper {
  return {
    anchor: async (head): Promise<AnchorReceipt> => {
      const anchorIndex = index++;
      return {
        anchorIndex,
        treeSize: head.treeSize,
        root: head.root,
        chainId: TEST_CHAIN_ID,
        registry: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
        txHash: `0x${(anchorIndex + 0xa0).toString(16).repeat(32)}`,
        blockNumber: 500 + anchorIndex,
        blockHash: `0x${(anchorIndex + 0xb0).toString(16).repeat(32)}`,
        anchoredAt: SITE_NOW,
      };
    },
  };
}

/** Opens a store (in-memory SQLite unless told) and seeds it; scores are sealed and anchored at SITE_NOW. */
export async function seededSiteStore(
  open: () => Promise<Store> = () => openStore({ kind: "sqlite", file: ":memory:" }),
): Promise<Store> {
  const store = await open();
  await insertSeason(store.db, {
    id: "s0",
    name: "Season s0",
    starts_at: SEASON_START - 40 * DAY,
    ends_at: SEASON_START - 12 * DAY,
    closed_at: null,
    created_at: SEASON_START - 41 * DAY,
  });
  await addTestSeason(store, SITE_SEASON);
  for (const plan of PLANS) await seedAgent(store, plan, SITE_NOW);
  await seedCalls(store, SITE_NOW);
  await seedCloses(store, SITE_NOW);
  await seedConsensus(store);
  const keeper = instantKeeper();
  const scorer = new AugurScorer();
  // The first hour also seals the referee board from the calls and closes it anchored.
  await runCycle({
    store,
    steps: [anchorStep(keeper), scoreStep(scorer), refereeStep()],
    now: () => SITE_NOW,
  });
  // The second hour anchors the board and seals the risk rows (from the records the first
  // anchored; they stay pending); the referee's input is unchanged, so no second board.
  await runCycle({
    store,
    steps: [anchorStep(keeper), riskStep(), refereeStep()],
    now: () => SITE_NOW + HOUR,
  });
  return store;
}

export interface SiteServer {
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** The engine's HTTP server (API and site) on 127.0.0.1, a free port. */
export async function startSiteServer(store: Store, now = SITE_NOW): Promise<SiteServer> {
  const app = await buildApp({
    store,
    chainId: TEST_CHAIN_ID,
    now: () => now,
    assets: SITE_ASSETS,
    creators: SITE_CREATORS,
  });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return { url, app, close: () => app.close() };
}
