import { expect } from "chai";
import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { recordStewardshipDays } from "../../stewardship/days";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import {
  DAY,
  fakeSource,
  HISTORY_DAY0,
  TOKEN,
  writeScriptedHistory,
} from "../../../test-support/stewardship/testing";
import { anchorWholeLog } from "../../../test-support/api/testing";

interface Served {
  state: string | null;
  stateSince: string | null;
  asOf: number | null;
  monitored: { token: string; chainId: number } | null;
  thresholds: Record<string, unknown>;
  days: Array<Record<string, unknown> & { seal: string; anchor: { status: string; anchorIndex?: number } }>;
  clusters: Array<{ criterion: string; addresses: string[]; swaps: string[]; volumeUsd: number }>;
}

for (const backend of testBackends()) {
  describe(`GET /api/v1/stewardship on ${backend.name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    const get = async (url: string) => {
      const res = await app.inject({ method: "GET", url });
      return {
        status: res.statusCode,
        text: res.body,
        body: res.json() as Served & { error?: { code: string } },
      };
    };

    before(async () => {
      store = await backend.open();
      await writeScriptedHistory(store);
      app = await buildApp({ store, chainId: 31337, now: () => HISTORY_DAY0 + 3 * DAY });
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("says nothing is measured before the first record", async () => {
      const { status, body } = await get("/api/v1/stewardship");
      expect(status).to.equal(200);
      expect(body).to.deep.include({
        state: null,
        stateSince: null,
        asOf: null,
        monitored: null,
        days: [],
        clusters: [],
      });
      expect(body.thresholds).to.deep.include({
        holdersArmAbove: 100,
        holdersDeclineBps: 1500,
        volumeFloorUsd: 500,
      });
    });

    it("serves the stored days with their trigger states, the latest evidence, seals and anchor status", async () => {
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + 3 * DAY;
      await recordStewardshipDays(store, source, HISTORY_DAY0 + 3 * DAY);
      const pending = (await get("/api/v1/stewardship")).body;
      expect(pending).to.deep.include({ state: "normal", stateSince: null, asOf: HISTORY_DAY0 + 3 * DAY });
      expect(pending.monitored).to.deep.include({ token: TOKEN, chainId: 31337 });
      expect(
        pending.days.map((d) => [
          d.date,
          d.at,
          d.holders,
          d.organicVolumeUsd,
          d.excludedVolumeUsd,
          d.clusters,
        ]),
      ).to.deep.equal([
        ["2027-01-16", HISTORY_DAY0, 3, 600, 0, 0],
        ["2027-01-17", HISTORY_DAY0 + DAY, 3, 100, 300, 1],
        ["2027-01-18", HISTORY_DAY0 + 2 * DAY, 2, 0, 0, 1],
      ]);
      expect(pending.days[2]).to.include({
        volumeDaysBelow: 2,
        volumeTrigger: false,
        holdersTrigger: false,
        state: "normal",
      });
      expect(pending.days.every((d) => d.anchor.status === "pending")).to.equal(true);
      expect(
        pending.clusters.map((c) => [c.criterion, c.addresses, c.swaps.length, c.volumeUsd]),
      ).to.deep.equal([["b", [], 6, 300]]); // a lone wallet: in aggregate, unnamed

      await anchorWholeLog(store, 7);
      const anchored = (await get("/api/v1/stewardship")).body;
      expect(anchored.days.map((d) => d.anchor)).to.satisfy(
        (list: Array<{ status: string; anchorIndex: number }>) =>
          list.every((a) => a.status === "anchored" && a.anchorIndex === 7),
      );
    });

    it("serves one day's sealed body byte for byte: sha256 of it is the seal", async () => {
      const res = await get("/api/v1/stewardship/days/2027-01-17");
      expect(res.status).to.equal(200);
      const raw = /"body":(\{.*\})\}$/.exec(res.text)![1]!;
      const served = res.body as unknown as { seal: string; body: { day: string; holders: number } };
      expect(`0x${createHash("sha256").update(raw, "utf8").digest("hex")}`).to.equal(served.seal);
      expect(served.body).to.include({ day: "2027-01-17", holders: 3 });
    });

    it("answers 404 for a day without a record and 400 for a malformed date; the routes are in the OpenAPI document", async () => {
      const missing = await get("/api/v1/stewardship/days/2030-01-01");
      expect([missing.status, missing.body.error?.code]).to.deep.equal([404, "UNKNOWN_DAY"]);
      expect((await get("/api/v1/stewardship/days/yesterday")).status).to.equal(400);
      const paths = Object.keys(
        ((await get("/api/v1/openapi.json")).body as unknown as { paths: object }).paths,
      );
      expect(paths).to.include.members(["/api/v1/stewardship", "/api/v1/stewardship/days/{day}"]);
    });
  });
}
