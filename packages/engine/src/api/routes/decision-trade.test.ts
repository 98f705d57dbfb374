import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../store/open";
import { AgentRecords } from "../../store/agent-records";
import { testBackends } from "../../../test-support/store/testing";
import { buildApp } from "../app";
import {
  addTestSeason,
  decision,
  registrationV2,
  sign,
  signV2,
  testWallet,
  SEASON_START,
  TEST_CHAIN_ID,
} from "../../../test-support/records/testing";

// A buy or sell decision may name the transaction of its trade (DecisionV2): accepted beside plain
// Decisions in a measured season, stored and scored as a decision, its link served with the body.
for (const backend of testBackends()) {
  describe(`a decision that names its trade (${backend.name})`, () => {
    let store: Store;
    let app: FastifyInstance;
    const now = SEASON_START + 7200;
    const agent = testWallet("linking agent");
    const creator = testWallet("linking creator");
    const TX = `0x${"5e".repeat(32)}`;
    const post = (payload: object) =>
      app.inject({
        method: "POST",
        url: "/api/v1/records",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(payload),
      });

    before(async () => {
      store = await backend.open();
      await addTestSeason(store, "s1", null, "measured");
      app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => now });
      const message = { ...registrationV2("linker", agent, creator), registeredAt: now - 120 };
      expect((await post(await signV2(message, agent, creator))).statusCode).to.equal(201);
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("stores a DecisionV2 as a decision with its txHash, beside a plain Decision, and serves both", async () => {
      const linked = { ...decision("linker", now - 60), txHash: TX };
      const plain = { ...decision("linker", now - 30), action: "hold" };
      const a = await post(await sign("DecisionV2", linked, agent));
      expect(a.statusCode, a.body).to.equal(201);
      expect(a.json().kind).to.equal("decision");
      expect((await post(await sign("Decision", plain, agent))).statusCode).to.equal(201);
      const res = await app.inject({
        method: "GET",
        url: "/api/v1/agents/linker/inputs?season_id=s1&kind=decision",
      });
      expect(res.statusCode, res.body).to.equal(200);
      const inputs = res.json<{ inputs: Array<{ kind: string; seal: `0x${string}`; body: string }> }>()
        .inputs;
      const bodies = inputs.map((i) => JSON.parse(i.body));
      expect(bodies.map((b) => [b.type, b.message.txHash])).to.deep.equal([
        ["DecisionV2", TX],
        ["Decision", undefined],
      ]);
      // The scorer reads both as decisions, the link aside: its trades are the measured ones.
      const records = new AgentRecords();
      for (const i of inputs) records.add(i.kind, i.seal, i.body);
      expect(records.decisions).to.deep.equal([
        { decidedAt: now - 60, source: "decider", asset: linked.asset, action: "buy" },
        { decidedAt: now - 30, source: "decider", asset: linked.asset, action: "hold" },
      ]);
    });

    it("the agent's page lists the decisions that name their trade, with the transaction", async () => {
      const res = await app.inject({ method: "GET", url: "/agents/linker?season=s1" });
      expect(res.statusCode, res.body).to.equal(200);
      const table = /<table id="decision-links">([\s\S]*?)<\/table>/.exec(res.body)?.[1] ?? "";
      expect(table, "the block is on the page").to.not.equal("");
      expect(table).to.contain(`title="${TX}"`);
      expect(table.match(/<tr>/g), "the header and the one linked decision").to.have.length(2);
      expect(table).to.contain("<td>buy</td>").and.not.contain("<td>hold</td>");
    });

    it("refuses a malformed link and a link on a hold with 400 naming message.txHash, storing nothing", async () => {
      for (const [message, text] of [
        [{ ...decision("linker", now - 20), txHash: "0xdead" }, "must be 0x + 64 hex digits"],
        [
          { ...decision("linker", now - 10), action: "hold", txHash: TX },
          "only a buy or sell decision carries one (action is hold)",
        ],
      ] as const) {
        const before = await store.log.size(store.db);
        const res = await post(
          await sign("DecisionV2", message, agent).catch(() => ({
            type: "DecisionV2",
            message,
            signature: `0x${"00".repeat(65)}`,
          })),
        );
        expect(res.statusCode, res.body).to.equal(400);
        expect(res.json().error.message).to.contain("message.txHash").and.to.contain(text);
        expect(await store.log.size(store.db)).to.equal(before);
      }
    });
  });
}
