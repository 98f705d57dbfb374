import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { sha256, toHex32 } from "@augur/scorer";
import { ingestRecord, type Submission } from "../../records/ingest";
import { openStore, type Store } from "../../store/open";
import { testApp } from "../../../test-support/api/testing";
import {
  addTestSeason,
  decision,
  registerTestAgent,
  sign,
  snapshot,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../../test-support/records/testing";

interface Leaf {
  leafIndex: number;
  seal: string;
  kind: string;
  agentId: string | null;
  seasonId: string | null;
  route: string | null;
}
interface Input {
  kind: string;
  seal: string;
  leafIndex: number;
  body: string;
}

describe("the log enumerated: /api/v1/log/leaves and /api/v1/agents/:id/inputs", () => {
  let store: Store;
  let app: FastifyInstance;
  const written: { seal: string; kind: string; agent: string }[] = [];

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    await addTestSeason(store);
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity });
    for (const id of ["alpha", "beta"]) {
      const { agent } = await registerTestAgent(ingest, id);
      written.push({
        seal: (await store.log.sealAt(store.db, (await store.log.size(store.db)) - 1))!,
        kind: "registration",
        agent: id,
      });
      for (let h = 0; h < 3; h++) {
        const at = TEST_NOW - 3600 * (3 - h);
        for (const [kind, type, message] of [
          ["snapshot", "Snapshot", snapshot(id, at)],
          ["decision", "Decision", decision(id, at + 1)],
          ["trade", "Trade", trade(id, at + 2)],
        ] as const)
          written.push({ seal: (await ingest(await sign(type, message, agent))).seal, kind, agent: id });
      }
    }
    app = await testApp(store);
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  const get = (url: string) => app.inject({ method: "GET", url });

  it("lists every leaf in log order with its kind, agent, season and route, page by page", async () => {
    const whole = (await get("/api/v1/log/leaves")).json<{ treeSize: number; next: null; leaves: Leaf[] }>();
    expect(whole.treeSize).to.equal(written.length);
    expect(whole.next).to.equal(null);
    expect(whole.leaves.map((l) => [l.leafIndex, l.seal, l.kind, l.agentId])).to.deep.equal(
      written.map((w, i) => [i, w.seal, w.kind, w.agent]),
    );
    for (const l of whole.leaves)
      expect(l).to.include({ seasonId: "s1", route: `/api/v1/records/${l.seal}` });
    const pages: Leaf[] = [];
    for (let start: number | null = 0; start !== null; ) {
      const page: { next: number | null; leaves: Leaf[] } = (
        await get(`/api/v1/log/leaves?start=${start}&end=${Math.min(start + 4, whole.treeSize)}`)
      ).json();
      pages.push(...page.leaves);
      start = page.next;
    }
    expect(pages).to.deep.equal(whole.leaves);
  });

  it("answers 400 with a message for a range outside the log or too long, and for bad numbers", async () => {
    for (const [query, message] of [
      ["start=0&end=999", /end 999 is beyond the log size 20/],
      ["start=21", /start 21 is beyond the log size 20/],
      ["start=5&end=4", /end 4 is before start 5/],
      ["start=-1", /start/],
      ["start=abc", /start/],
      ["start=0&end=1&x=1", /additional/],
    ] as const) {
      const res = await get(`/api/v1/log/leaves?${query}`);
      expect(res.statusCode, query).to.equal(400);
      expect(res.json<{ error: { message: string } }>().error.message, query).to.match(message);
    }
  });

  it("serves an agent's inputs in log order below a log size, each body hashing to its seal", async () => {
    const all = (await get("/api/v1/agents/alpha/inputs?season_id=s1")).json<{
      logSize: number;
      inputs: Input[];
    }>();
    const alpha = written.filter((w) => w.agent === "alpha" && w.kind !== "registration");
    expect(all.logSize).to.equal(written.length);
    expect(all.inputs.map((i) => [i.kind, i.seal])).to.deep.equal(alpha.map((w) => [w.kind, w.seal]));
    for (const input of all.inputs) expect(toHex32(sha256(input.body))).to.equal(input.seal);
    const trades = (await get("/api/v1/agents/alpha/inputs?season_id=s1&kind=trade&log_size=7")).json<{
      inputs: Input[];
    }>();
    expect(trades.inputs.map((i) => i.seal)).to.deep.equal(
      alpha.filter((w, i) => w.kind === "trade" && i < 6).map((w) => w.seal),
    );
  });

  it("answers 404 for an agent not in the season and 400 for a bad kind or log size", async () => {
    expect((await get("/api/v1/agents/nobody/inputs?season_id=s1")).statusCode).to.equal(404);
    for (const query of ["season_id=s1&kind=score", "season_id=s1&log_size=999", "kind=trade"]) {
      const res = await get(`/api/v1/agents/alpha/inputs?${query}`);
      expect(res.statusCode, query).to.equal(400);
      expect(res.json<{ error: { message: string } }>().error.message, query).to.be.a("string").not.equal("");
    }
  });
});
