import { createHash } from "node:crypto";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { verifyInclusion, type Hex32 } from "@augur/scorer";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import {
  addTestSeason,
  registration,
  sign,
  snapshot,
  testWallet,
  TEST_NOW,
} from "../../test-support/records/testing";
import { addTestScore, anchorWholeLog, REGISTRY, testApp } from "../../test-support/api/testing";

for (const backend of testBackends()) {
  describe(`HTTP API on ${backend.name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    const agent = testWallet("api agent");
    const creator = testWallet("api creator");

    const post = (payload: unknown) =>
      app.inject({ method: "POST", url: "/api/v1/records", payload: payload as object });

    before(async () => {
      store = await backend.open();
      await addTestSeason(store);
      app = await testApp(store);
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("registers an agent (201), then answers 200 with the same seal for the same registration", async () => {
      const submission = await sign("Registration", registration("alpha", agent, creator), agent, creator);
      const first = await post(submission);
      expect(first.statusCode, first.body).to.equal(201);
      expect(first.json()).to.include({ leafIndex: 0, kind: "registration", created: true });
      const again = await post(submission);
      expect(again.statusCode).to.equal(200);
      expect(again.json()).to.deep.equal({ ...first.json(), created: false });
    });

    it("refuses a snapshot signed by another key with 403 and a JSON message", async () => {
      const res = await post(await sign("Snapshot", snapshot("alpha", TEST_NOW), testWallet("mallory")));
      expect(res.statusCode).to.equal(403);
      expect(res.json().error.code).to.equal("WRONG_SIGNER");
      expect(res.json().error.message).to.match(/was made by 0x[0-9a-f]{40}, not by 0x[0-9a-f]{40}/);
    });

    it("refuses a bad field with 400 naming it, and an unknown agent with 404", async () => {
      const bad = await post({
        ...(await sign("Snapshot", snapshot("alpha", TEST_NOW), agent)),
        message: { ...snapshot("alpha", TEST_NOW), nav: "1.5" },
      });
      expect(bad.statusCode).to.equal(400);
      expect(bad.json().error.message).to.match(/^message\.nav: /);
      const unknown = await post(await sign("Snapshot", snapshot("nobody", TEST_NOW), agent));
      expect(unknown.statusCode).to.equal(404);
      expect(unknown.json().error.code).to.equal("UNKNOWN_AGENT");
    });

    it("shows a seal as pending (404 with status) until an anchor covers it, then gives a verifying proof", async () => {
      const res = await post(await sign("Snapshot", snapshot("alpha", TEST_NOW - 60), agent));
      expect(res.statusCode).to.equal(201);
      const { seal, leafIndex } = res.json() as { seal: Hex32; leafIndex: number };
      const pending = await app.inject(`/api/v1/anchors/leaves/${seal}`);
      expect(pending.statusCode).to.equal(404);
      expect(pending.json()).to.deep.include({ status: "pending", seal, leafIndex });
      expect(pending.json().error.code).to.equal("NOT_ANCHORED");

      const treeSize = await anchorWholeLog(store, 0);
      const anchored = await app.inject(`/api/v1/anchors/leaves/${seal.toUpperCase().replace("0X", "0x")}`);
      expect(anchored.statusCode, anchored.body).to.equal(200);
      const body = anchored.json();
      expect(body.anchor).to.include({
        anchorIndex: 0,
        treeSize,
        chainId: 31337,
        registry: REGISTRY,
        blockNumber: 100,
      });
      const proof = { leafIndex, treeSize, root: body.anchor.root, proof: body.proof.hashes };
      expect(verifyInclusion(seal, proof)).to.equal(true);
      expect(body.anchor.root).to.equal(await store.log.root(store.db, treeSize));
    });

    it("serves a sealed record whose body text hashes to its seal, with its signature", async () => {
      const submission = await sign("Snapshot", snapshot("alpha", TEST_NOW - 30), agent);
      const { seal } = (await post(submission)).json() as { seal: Hex32 };
      const res = await app.inject(`/api/v1/records/${seal}`);
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.include({
        seal,
        kind: "snapshot",
        agentId: "alpha",
        signer: agent.address.toLowerCase(),
      });
      expect(res.json().signature).to.equal((submission.signature as string).toLowerCase());
      const body = /"body":(\{.*\})\}$/.exec(res.body)![1]!;
      expect(`0x${createHash("sha256").update(body).digest("hex")}`).to.equal(seal);
      expect((await app.inject(`/api/v1/records/0x${"1".repeat(64)}`)).json().error.code).to.equal(
        "UNKNOWN_SEAL",
      );
    });

    it("answers 404 UNKNOWN_SEAL for a seal never seen", async () => {
      const res = await app.inject(`/api/v1/anchors/leaves/0x${"0".repeat(64)}`);
      expect(res.statusCode).to.equal(404);
      expect(res.json()).to.deep.equal({
        error: { code: "UNKNOWN_SEAL", message: `seal 0x${"0".repeat(64)} is not in the log` },
      });
    });

    it("serves the score row with manifest, seal and anchor status", async () => {
      const none = await app.inject("/api/v1/agents/alpha/score?season_id=s1");
      expect(none.statusCode).to.equal(404);
      expect(none.json().error.code).to.equal("NO_SCORE");
      const seal = await addTestScore(store, {
        agentId: "alpha",
        seasonId: "s1",
        asOf: TEST_NOW,
        score: 61.3,
        reason: null,
        rank: 1,
      });
      const pending = await app.inject("/api/v1/agents/alpha/score?season_id=s1");
      expect(pending.statusCode).to.equal(200);
      expect(pending.json()).to.deep.include({
        agentId: "alpha",
        seasonId: "s1",
        score: 61.3,
        rank: 1,
        reason: null,
        seal,
      });
      expect(pending.json().manifest).to.include({ formula: "augur-score/v1", agent: "alpha" });
      // The manifest is served as the sealed canonical text itself: hashing it gives the seal.
      const text = /"manifest":(\{[^}]*\})/.exec(pending.body)![1]!;
      expect(`0x${createHash("sha256").update(text).digest("hex")}`).to.equal(seal);
      expect(pending.json().anchor).to.deep.equal({ status: "pending" });
      await anchorWholeLog(store, 1);
      const anchored = await app.inject("/api/v1/agents/alpha/score?season_id=s1");
      expect(anchored.json().anchor).to.include({ status: "anchored", anchorIndex: 1 });
      const unknown = await app.inject("/api/v1/agents/ghost/score?season_id=s1");
      expect(unknown.json().error.code).to.equal("UNKNOWN_AGENT");
    });

    it("ranks the leaderboard with unranked agents last", async () => {
      await addTestScore(store, {
        agentId: "beta",
        seasonId: "s1",
        asOf: TEST_NOW + 3600,
        score: null,
        reason: "too_few_decisions",
        rank: null,
      });
      await addTestScore(store, {
        agentId: "alpha",
        seasonId: "s1",
        asOf: TEST_NOW + 3600,
        score: 70,
        reason: null,
        rank: 1,
      });
      const res = await app.inject("/api/v1/seasons/s1/leaderboard?limit=10");
      expect(res.statusCode).to.equal(200);
      expect(res.json().asOf).to.equal(TEST_NOW + 3600);
      expect(res.json().rows.map((r: { agentId: string }) => r.agentId)).to.deep.equal(["alpha", "beta"]);
      expect(res.json().rows[1]).to.include({ score: null, reason: "too_few_decisions", rank: null });
      expect((await app.inject("/api/v1/seasons/s9/leaderboard")).statusCode).to.equal(404);
    });

    it("pages anchors with a cursor", async () => {
      const first = await app.inject("/api/v1/anchors?limit=1");
      expect(first.json().anchors).to.have.length(1);
      expect(first.json().next).to.equal(0);
      const second = await app.inject("/api/v1/anchors?limit=1&after=0");
      expect(second.json().anchors[0].anchorIndex).to.equal(1);
      const rest = await app.inject("/api/v1/anchors?after=1");
      expect(rest.json()).to.deep.equal({ anchors: [], next: null });
    });

    it("serves consensus rounds of a market (empty until the indexer writes them)", async () => {
      const res = await app.inject("/api/v1/consensus/0x5FbDB2315678afecb367f032d93F642f64180aa3/3600");
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({
        asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
        ticker: null, // no --assets directory configured
        window: 3600,
        rounds: [],
      });
      expect((await app.inject("/api/v1/consensus/0x5f/3600")).statusCode).to.equal(400);
      expect(
        (await app.inject("/api/v1/consensus/0x5FbDB2315678afecb367f032d93F642f64180aa3/0")).statusCode,
      ).to.equal(400);
    });

    it("serves an OpenAPI 3.1 document generated from the route schemas", async () => {
      const doc = (await app.inject("/api/v1/openapi.json")).json();
      expect(doc.openapi).to.equal("3.1.0");
      expect(Object.keys(doc.paths)).to.include.members([
        "/api/v1/records",
        "/api/v1/agents/{id}/score",
        "/api/v1/anchors/leaves/{seal}",
        "/api/v1/anchors",
        "/api/v1/seasons/{id}/leaderboard",
        "/api/v1/consensus/{asset}/{window}",
        "/healthz",
      ]);
      const score = doc.paths["/api/v1/agents/{id}/score"].get;
      expect(score.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.deep.equal([
        "path:id",
        "query:season_id",
        "query:as_of",
      ]);
      expect(doc.components.schemas.SnapshotMessage.required).to.deep.equal([
        "agentId",
        "seasonId",
        "takenAt",
        "nav",
        "flow",
        "investedBps",
      ]);
    });

    it("publishes the EIP-712 domain and types", async () => {
      const res = (await app.inject("/api/v1/eip712")).json();
      expect(res.domain).to.deep.equal({ name: "Augur ledger", version: "1", chainId: 31337 });
      expect(res.types.Trade.map((f: { name: string }) => f.name)).to.include("txHash");
    });

    it("allows CORS on reads but not on record submission", async () => {
      const read = await app.inject({ url: "/api/v1/anchors", headers: { origin: "https://example.org" } });
      expect(read.headers["access-control-allow-origin"]).to.equal("*");
      const write = await app.inject({
        method: "POST",
        url: "/api/v1/records",
        headers: { origin: "https://example.org" },
        payload: {},
      });
      expect(write.headers["access-control-allow-origin"]).to.equal(undefined);
    });

    it("answers /healthz with the store kind and log size", async () => {
      const res = await app.inject("/healthz");
      expect(res.json()).to.deep.include({ status: "ok", store: backend.name });
      expect(res.json().logSize).to.equal(await store.log.size(store.db));
    });
  });
}

describe("HTTP API write limits", () => {
  it("rate-limits record submissions per client (429, JSON message) but not reads", async () => {
    const [sqlite] = testBackends();
    const store = await sqlite!.open();
    const app = await testApp(store, 2);
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await app.inject({ method: "POST", url: "/api/v1/records", payload: {} })).statusCode);
      expect(codes).to.deep.equal([400, 400, 429]);
      const limited = await app.inject({ method: "POST", url: "/api/v1/records", payload: {} });
      expect(limited.json().error.code).to.equal("RATE_LIMITED");
      for (let i = 0; i < 5; i++) expect((await app.inject("/api/v1/anchors")).statusCode).to.equal(200);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
