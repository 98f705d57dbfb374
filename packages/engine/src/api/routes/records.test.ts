import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { buildApp } from "../app";
import {
  addTestSeason,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  SEASON_START,
  TEST_CHAIN_ID,
} from "../../../test-support/records/testing";

// POST /api/v1/records refuses, with a 4xx naming the problem and nothing stored, every record
// the scorer would refuse later, every body JSON cannot say twice, the past and equivocation;
// with records checked inline and on the ingest pool's workers alike, byte for byte.
for (const [backend, ingestWorkers] of testBackends().flatMap((b) => [[b, 0] as const, [b, 2] as const])) {
  describe(`POST /api/v1/records refusals (${backend.name}, ${ingestWorkers} ingest workers)`, () => {
    let store: Store;
    let app: FastifyInstance;
    const registeredAt = SEASON_START + 3600;
    let now = registeredAt;
    const agent = testWallet("route agent");
    const creator = testWallet("route creator");
    const post = (payload: string | object) =>
      app.inject({
        method: "POST",
        url: "/api/v1/records",
        headers: { "content-type": "application/json" },
        payload: typeof payload === "string" ? payload : JSON.stringify(payload),
      });

    async function refused(payload: string | object, status: number, code: string, text: string) {
      const before = await store.log.size(store.db);
      const res = await post(payload);
      expect(res.statusCode, res.body).to.equal(status);
      expect(res.json().error.code).to.equal(code);
      expect(res.json().error.message).to.contain(text);
      expect(await store.log.size(store.db), "nothing stored").to.equal(before);
    }

    before(async () => {
      store = await backend.open();
      await addTestSeason(store);
      app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => now }, { ingestWorkers });
      const message = { ...registration("route", agent, creator), registeredAt };
      expect((await post(await sign("Registration", message, agent, creator))).statusCode).to.equal(201);
      now = registeredAt + 120;
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("refuses a body with a repeated key or an integer beyond ±(2^53 − 1) (400)", async () => {
      const body = JSON.stringify(await sign("Snapshot", snapshot("route", now - 5), agent));
      // The same snapshot with its nav said twice: JSON.parse would keep the second silently.
      const twice = body.replace('"nav":"1000000000"', '"nav":"1000000000","nav":"5"');
      expect(twice).to.not.equal(body);
      await refused(twice, 400, "INVALID_INPUT", '$.message: repeats the key "nav"');
      const huge = body.replace(`"takenAt":${now - 5}`, '"takenAt":9007199254740993');
      await refused(huge, 400, "INVALID_INPUT", "$.message.takenAt: is an integer beyond ±(2^53 − 1)");
      expect((await post(body)).statusCode).to.equal(201);
    });

    it("refuses what augur-score/v1 would refuse, naming the field (400)", async () => {
      await refused(
        await sign("Snapshot", snapshot("route", now - 4, "0"), agent),
        400,
        "INVALID_INPUT",
        "message.nav",
      );
      const zero = { ...trade("route", now - 4), quantity: "0" };
      await refused(await sign("Trade", zero, agent), 400, "INVALID_INPUT", "message.quantity");
      const free = { ...trade("route", now - 4), price: "0" };
      await refused(await sign("Trade", free, agent), 400, "INVALID_INPUT", "message.price");
    });

    it("refuses the past (422) and a second record for one moment (409)", async () => {
      await refused(
        await sign("Snapshot", snapshot("route", SEASON_START + 60), agent),
        422,
        "STALE_RECORD",
        "more than 600 s before its arrival",
      );
      await refused(
        await sign("Snapshot", snapshot("route", registeredAt - 1), agent),
        422,
        "BEFORE_REGISTRATION",
        `before the agent's registration at ${registeredAt}`,
      );
      expect((await post(await sign("Snapshot", snapshot("route", now - 3), agent))).statusCode).to.equal(
        201,
      );
      expect((await post(await sign("Snapshot", snapshot("route", now - 3), agent))).statusCode).to.equal(
        200,
      );
      await refused(
        await sign("Snapshot", snapshot("route", now - 3, "999"), agent),
        409,
        "EQUIVOCATION",
        "a different snapshot of this agent",
      );
    });

    it("refuses a garbage signature (401), a stranger's (403) and a misplaced co-signature (400) with exact bodies", async () => {
      const before = await store.log.size(store.db);
      const body = await sign("Snapshot", snapshot("route", now - 2), agent);
      const answers = async (payload: object, status: number, error: { code: string; message: string }) => {
        const res = await post(payload);
        expect(res.statusCode, res.body).to.equal(status);
        expect(res.json()).to.deep.equal({ error });
      };
      await answers({ ...body, signature: `0x${"00".repeat(65)}` }, 401, {
        code: "BAD_SIGNATURE",
        message: "signature: does not recover to any address",
      });
      const mallory = testWallet("mallory");
      await answers(await sign("Snapshot", snapshot("route", now - 2), mallory), 403, {
        code: "WRONG_SIGNER",
        message: `signature was made by ${mallory.address.toLowerCase()}, not by ${agent.address.toLowerCase()}`,
      });
      await answers({ ...body, creatorSignature: body.signature }, 400, {
        code: "INVALID_INPUT",
        message: "creatorSignature: is only for a Registration",
      });
      const other = testWallet("other agent");
      const message = { ...registration("other", other, creator), registeredAt };
      const signed = await sign("Registration", message, other, creator);
      await answers({ ...signed, creatorSignature: `0x${"11".repeat(65)}` }, 401, {
        code: "BAD_SIGNATURE",
        message: "creatorSignature: does not recover to any address",
      });
      expect(await store.log.size(store.db), "nothing stored").to.equal(before);
    });
  });
}
