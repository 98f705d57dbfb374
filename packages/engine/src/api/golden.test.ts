import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { recordStewardshipDays } from "../stewardship/days";
import { MODE_FORMAT, modeNoticeBody } from "../modes/records";
import { writeNotice } from "../modes/notices";
import { receiptDocument } from "../modes/receipt/document";
import { TEST_CHAIN_ID } from "../../test-support/records/testing";
import {
  SITE_ASSETS,
  SITE_CREATORS,
  SITE_NOW,
  SITE_SEASON,
  seededSiteStore,
  TSLA,
} from "../../test-support/site/testing";
import { openStore, type Store } from "../store/open";
import { appendModeRecord } from "../store/queries/modes";
import { DAY, fakeSource, HISTORY_DAY0, writeScriptedHistory } from "../../test-support/stewardship/testing";
import { buildApp } from "./app";
import { anchorWholeLog } from "../../test-support/api/testing";

/**
 * The golden test: every `/api/v1` route (with and without query parameters, and some 4xx), the
 * OpenAPI document and every site page, answered from deterministic stores at a fixed clock,
 * compared byte for byte (status, the headers a client reads, body) with the recorded responses
 * in `test-support/api/golden/`. A refactor of the API or the site must leave them unchanged;
 * a deliberate change of a response is recorded with `GOLDEN=update`.
 */
const GOLDEN_DIR = join(__dirname, "..", "..", "test-support", "api", "golden");

/** Headers that vary between two identical requests (clock, connection, rate-limit window). */
const VOLATILE_HEADERS = new Set(["date", "connection", "keep-alive", "x-ratelimit-reset", "retry-after"]);

interface GoldenRequest {
  readonly method: "GET" | "HEAD" | "POST";
  readonly url: string;
  readonly payload?: string;
}

/** The header line of each section; a body line like it would make the fixture ambiguous. */
const DELIMITER = /^=== .* ===$/;

const get = (url: string): GoldenRequest => ({ method: "GET", url });

/** One request and its answer as the fixture holds them: a header line, status, headers, body. */
async function section(app: FastifyInstance, request: GoldenRequest): Promise<string> {
  const res = await app.inject({
    method: request.method,
    url: request.url,
    ...(request.payload === undefined
      ? {}
      : { payload: request.payload, headers: { "content-type": "application/json" } }),
  });
  const headers = Object.entries(res.headers)
    .filter(([name]) => !VOLATILE_HEADERS.has(name.toLowerCase()))
    .map(([name, value]) => `${name.toLowerCase()}: ${String(value)}`)
    .sort();
  const title = `=== ${request.method} ${request.url}${request.payload === undefined ? "" : ` ${request.payload}`} ===`;
  if (res.body.split("\n").some((line) => DELIMITER.test(line)))
    throw new Error(`the body of ${title} holds a line that looks like a section delimiter`);
  return [title, String(res.statusCode), ...headers, "", res.body].join("\n");
}

/** Splits a fixture back into its sections, by their header line. */
function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split("\n");
  let title: string | undefined;
  let body: string[] = [];
  const flush = () => {
    if (title !== undefined) out.set(title, [title, ...body].join("\n").replace(/\n$/, ""));
  };
  for (const line of lines) {
    if (DELIMITER.test(line)) {
      flush();
      title = line;
      body = [];
    } else body.push(line);
  }
  flush();
  return out;
}

/** Answers every request in order and compares with (or, with GOLDEN=update, rewrites) the fixture. */
async function compareWithGolden(
  name: string,
  app: FastifyInstance,
  requests: GoldenRequest[],
): Promise<void> {
  const answered: string[] = [];
  for (const request of requests) answered.push(await section(app, request));
  const file = join(GOLDEN_DIR, `${name}.txt`);
  const text = answered.join("\n") + "\n";
  if (process.env.GOLDEN === "update") {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
  }
  expect(existsSync(file), `${file} is missing: run with GOLDEN=update to record it`).to.equal(true);
  const fixture = readFileSync(file, "utf8");
  const recorded = sections(fixture);
  const now = sections(text);
  expect([...now.keys()]).to.deep.equal([...recorded.keys()]);
  // Section by section first, so a failure names the request; then the whole file, byte for byte.
  for (const [title, answer] of now) expect(answer, title).to.equal(recorded.get(title));
  expect(text === fixture, `${file} differs`).to.equal(true);
}

/** Pages and views of one season, with the parameters each takes. */
function seasonRequests(season: string, ids: { snapshot: string; score: string; pending: string }) {
  const api = "/api/v1";
  return [
    // Meta
    get("/healthz"),
    get(`${api}/eip712`),
    get(`${api}/openapi.json`),
    // Records and the log
    get(`${api}/records/${ids.snapshot}`),
    get(`${api}/records/${ids.score}`),
    get(`${api}/records/0x${"00".repeat(32)}`),
    get(`${api}/records/not-a-seal`),
    { method: "POST", url: `${api}/records`, payload: "{}" } as const,
    { method: "POST", url: `${api}/records`, payload: "{not json" } as const,
    {
      method: "POST",
      url: `${api}/records`,
      payload: JSON.stringify({ type: "Snapshot", message: {}, signature: `0x${"11".repeat(65)}` }),
    } as const,
    get(`${api}/anchors`),
    get(`${api}/anchors?after=0&limit=1`),
    get(`${api}/anchors?limit=0`),
    get(`${api}/anchors/leaves/${ids.snapshot}`),
    get(`${api}/anchors/leaves/${ids.score}`),
    get(`${api}/anchors/leaves/${ids.pending}`),
    get(`${api}/anchors/leaves/0x${"00".repeat(32)}`),
    get(`${api}/anchors/leaves/0x12`),
    get(`${api}/log/leaves?start=0&end=12`),
    get(`${api}/log/leaves?start=470`),
    get(`${api}/log/leaves?start=999999`),
    get(`${api}/log/leaves?start=3&end=2`),
    // Seasons, scores, standings, history
    get(`${api}/seasons`),
    get(`${api}/seasons/${season}/leaderboard`),
    get(`${api}/seasons/${season}/leaderboard?limit=2&offset=1`),
    get(`${api}/seasons/s0/leaderboard`),
    get(`${api}/seasons/nope/leaderboard`),
    get(`${api}/seasons/${season}/leaderboard?limit=0`),
    get(`${api}/seasons/${season}/standings`),
    get(`${api}/seasons/${season}/standings?limit=2&offset=1`),
    get(`${api}/seasons/${season}/standings?sort=agent&order=desc`),
    get(`${api}/seasons/${season}/standings?sort=creator`),
    get(`${api}/seasons/${season}/standings?sort=style&order=desc&limit=3`),
    get(`${api}/seasons/${season}/standings?offset=4`),
    get(`${api}/seasons/s0/standings`),
    get(`${api}/seasons/nope/standings`),
    get(`${api}/seasons/${season}/standings?sort=score`),
    get(`${api}/seasons/${season}/standings?extra=1`),
    get(`${api}/agents/ada/score?season_id=${season}`),
    get(`${api}/agents/dee/score?season_id=${season}`),
    get(`${api}/agents/nobody/score?season_id=${season}`),
    get(`${api}/agents/ada/score`),
    get(`${api}/agents/ada/history?season_id=${season}`),
    get(`${api}/agents/fay/history?season_id=${season}`),
    get(`${api}/agents/nobody/history?season_id=${season}`),
    get(`${api}/agents/ada/history`),
    get(`${api}/agents/ada/inputs?season_id=${season}&kind=trade`),
    get(`${api}/agents/ada/inputs?season_id=${season}&kind=decision&log_size=40`),
    get(`${api}/agents/ada/inputs?season_id=${season}&kind=score`),
    get(`${api}/agents/nobody/inputs?season_id=${season}`),
    get(`${api}/agents/ada/inputs`),
    // Risk
    get(`${api}/risk?season_id=${season}`),
    get(`${api}/risk?season_id=${season}&sort=measurable&order=asc`),
    get(`${api}/risk?season_id=s0`),
    get(`${api}/risk`),
    get(`${api}/risk?season_id=${season}&sort=nope`),
    get(`${api}/seasons/${season}/risk`),
    get(`${api}/seasons/s0/risk`),
    get(`${api}/seasons/nope/risk`),
    // Referee
    get(`${api}/referee/${season}`),
    get(`${api}/referee/${season}/board`),
    get(`${api}/referee/${season}/agents/ada`),
    get(`${api}/referee/${season}/agents/nobody`),
    get(`${api}/referee/${season}/input`),
    get(`${api}/referee/s0`),
    get(`${api}/referee/s0/board`),
    get(`${api}/referee/bad%20epoch`),
    // Consensus
    get(`${api}/consensus`),
    get(`${api}/consensus/${TSLA}/3600`),
    get(`${api}/consensus/${TSLA}/3600?limit=1`),
    get(`${api}/consensus/${TSLA}/60`),
    get(`${api}/consensus/0x12/3600`),
    get(`${api}/consensus/${TSLA}/3600?limit=0`),
    get(`${api}/assets`),
    get(`${api}/creators`),
    get(`${api}/consensus/TSLA/3600?limit=1`),
    get(`${api}/consensus/NOPE/3600`),
    // Stewardship and modes
    get(`${api}/stewardship`),
    get(`${api}/stewardship/days/2027-01-17`),
    get(`${api}/stewardship/days/yesterday`),
    get(`${api}/mode`),
    get(`${api}/receipt`),
    // Unknown
    get(`${api}/nope`),
    get("/api"),
    { method: "POST", url: "/", payload: "{}" } as const,
    // Site pages
    get("/"),
    { method: "HEAD", url: "/" } as const,
    get(`/?season=${season}`),
    get(`/?season=${season}&sort=agent&order=desc`),
    get(`/?season=${season}&sort=creator`),
    get(`/?season=${season}&page=2`),
    get(`/?season=${season}&sort=nope`),
    get("/?season=s0"),
    get("/?season=nope"),
    get("/?season=bad%20id"),
    get(`/agents/ada?season=${season}`),
    get(`/agents/dee?season=${season}`),
    get(`/agents/eve?season=${season}`),
    get(`/agents/fay?season=${season}`),
    get("/agents/ada"),
    get(`/agents/nobody?season=${season}`),
    get("/consensus"),
    get("/referee"),
    get(`/referee?season=${season}`),
    get("/referee?season=s0"),
    get("/risk"),
    get(`/risk?season=${season}`),
    get(`/risk?season=${season}&sort=measurable`),
    get(`/risk?season=${season}&sort=worst_fall&order=asc`),
    get("/risk?season=s0"),
    get("/stewardship"),
    // Not /methodology: its body is docs/ rendered, which changes with every edit of a doc.
    get("/mode"),
    get("/receipt"),
    get("/nope?x=1"),
  ];
}

/** A wound-down system: stewardship days measured and anchored, a final mode record, a saved receipt. */
async function woundDownStore(now: number): Promise<Store> {
  const store = await openStore({ kind: "sqlite", file: ":memory:" });
  await writeScriptedHistory(store);
  const source = fakeSource();
  source.finalThrough = now;
  await recordStewardshipDays(store, source, now);
  await anchorWholeLog(store, 0);
  const notice = await writeNotice(
    store,
    "notice",
    "2026-12-01",
    modeNoticeBody("wind-down", "the operator stops", "2026-12-01"),
    now,
  );
  const mode = {
    format: MODE_FORMAT,
    mode: "wind-down",
    since: "2026-12-31",
    declared: "2026-12-31",
    cause: { kind: "operator", notice: notice.seal, noticed: "2026-12-01", reason: "the operator stops" },
    previous: null,
  };
  const hex = (n: number, bytes: number) => `0x${n.toString(16).padStart(bytes * 2, "0")}`;
  const operator = hex(0xa1, 20);
  const receipt = receiptDocument({
    chainId: TEST_CHAIN_ID,
    range: { fromBlock: 10, toBlock: 20, fromHash: hex(1, 32), toHash: hex(2, 32) },
    token: hex(0x70, 20),
    operators: [operator],
    keeper: hex(0xbe, 20),
    settler: null,
    pricing: null,
    transfers: [
      {
        block: 12,
        txIndex: 0,
        tx: hex(1203, 32),
        logIndex: 3,
        asset: hex(0x70, 20),
        from: operator,
        to: hex(1, 20),
        amount: 100n,
      },
      {
        block: 11,
        txIndex: 0,
        tx: hex(1100, 32),
        logIndex: 0,
        asset: hex(0x70, 20),
        from: operator,
        to: "0x000000000000000000000000000000000000dead",
        amount: 40n,
      },
    ],
    nativeSends: [],
    gasTxs: [
      {
        block: 14,
        txIndex: 0,
        tx: hex(8, 32),
        from: hex(0xbe, 20),
        status: 1,
        gasUsed: 50_000n,
        effectiveGasPrice: 3n,
      },
    ],
    decimals: { [hex(0x70, 20)]: 18 },
    price: () => null,
  });
  await store.db.transaction().execute(async (trx) => {
    await appendModeRecord(trx, { kind: "mode", day: mode.since, body: mode }, now);
    await appendModeRecord(trx, { kind: "receipt", day: "2027-01-19", body: receipt }, now);
  });
  return store;
}

describe("golden: every API response and site page, byte for byte", function () {
  this.timeout(300_000);

  it("a season with six agents, two hourly cycles and a pending operator notice", async () => {
    const store = await seededSiteStore();
    // A notice after the cycles: its seal joins the log but no anchor yet (a pending leaf).
    const pending = await writeNotice(
      store,
      "notice",
      "2026-12-01",
      modeNoticeBody("maintenance", "a quiet month", "2026-12-01"),
      SITE_NOW,
    );
    const app = await buildApp({
      store,
      chainId: TEST_CHAIN_ID,
      now: () => SITE_NOW,
      assets: SITE_ASSETS,
      creators: SITE_CREATORS,
    });
    try {
      const score = (await app.inject(`/api/v1/agents/ada/score?season_id=${SITE_SEASON}`)).json<{
        seal: string;
      }>();
      const history = (await app.inject(`/api/v1/agents/ada/history?season_id=${SITE_SEASON}`)).json<{
        snapshots: { seal: string }[];
      }>();
      await compareWithGolden(
        "season",
        app,
        seasonRequests(SITE_SEASON, {
          snapshot: history.snapshots[0]!.seal,
          score: score.seal,
          pending: pending.seal,
        }),
      );
    } finally {
      await app.close();
      await store.close();
    }
  });

  it("a wound-down system: stewardship days, the final mode and a saved receipt", async () => {
    const now = HISTORY_DAY0 + 3 * DAY;
    const store = await woundDownStore(now);
    const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => now });
    try {
      await compareWithGolden("wound-down", app, [
        get("/api/v1/stewardship"),
        get("/api/v1/stewardship/days/2027-01-17"),
        get("/api/v1/stewardship/days/2030-01-01"),
        get("/api/v1/mode"),
        get("/api/v1/receipt"),
        get("/api/v1/seasons"),
        get("/api/v1/consensus"),
        get("/api/v1/anchors"),
        get("/api/v1/log/leaves"),
        { method: "POST", url: "/api/v1/records", payload: "{}" },
        get("/"),
        get("/consensus"),
        get("/referee"),
        get("/risk"),
        get("/stewardship"),
        get("/mode"),
        get("/receipt"),
        get("/nope"),
      ]);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
