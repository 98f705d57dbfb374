import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { openStore, type Store } from "../store/open";
import { addTestSeason } from "../../test-support/records/testing";
import { testApp } from "../../test-support/api/testing";

/** The API's answers to requests that are wrong in shape rather than in content. */
describe("API: method, content type, season and enum refusals", () => {
  let store: Store;
  let app: FastifyInstance;
  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    await addTestSeason(store, "s1");
    app = await testApp(store);
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  const error = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

  it("answers a wrong method with 405 and the methods the path takes in Allow", async () => {
    for (const [method, url, allow] of [
      ["DELETE", "/api/v1/seasons", "GET, HEAD"],
      ["POST", "/api/v1/seasons/s1/standings", "GET, HEAD"],
      ["PUT", "/api/v1/records", "POST"],
      ["POST", "/", "GET, HEAD"],
    ] as const) {
      const res = await app.inject({ method, url });
      expect([res.statusCode, res.headers.allow, error(res.body).code], `${method} ${url}`).to.deep.equal([
        405,
        allow,
        "METHOD_NOT_ALLOWED",
      ]);
    }
    const missing = await app.inject({ method: "DELETE", url: "/api/v1/nothing-here" });
    expect([missing.statusCode, error(missing.body).code]).to.deep.equal([404, "NOT_FOUND"]);
  });

  it("refuses every body that is not JSON with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/xml"]) {
      const res = await app.inject({
        method: "POST",
        url: "/api/v1/records",
        payload: "{}",
        headers: { "content-type": type },
      });
      expect([res.statusCode, error(res.body).code], type).to.deep.equal([415, "UNSUPPORTED_MEDIA_TYPE"]);
      expect(error(res.body).message).to.contain("application/json");
    }
  });

  it("says UNKNOWN_SEASON, not UNKNOWN_AGENT, for an agent in a season that does not exist", async () => {
    for (const url of [
      "/api/v1/agents/ada/score?season_id=nope",
      "/api/v1/agents/ada/history?season_id=nope",
      "/api/v1/seasons/nope/standings",
    ]) {
      const res = await app.inject(url);
      expect([res.statusCode, error(res.body)], url).to.deep.equal([
        404,
        { code: "UNKNOWN_SEASON", message: "season nope does not exist" },
      ]);
    }
    const agent = await app.inject("/api/v1/agents/ada/score?season_id=s1");
    expect(error(agent.body).code).to.equal("UNKNOWN_AGENT");
  });

  it("lists the allowed values when a parameter is not one of them", async () => {
    const sort = await app.inject("/api/v1/seasons/s1/standings?sort=bogus");
    expect([sort.statusCode, error(sort.body).message]).to.deep.equal([
      400,
      "querystring/sort must be equal to one of the allowed values: rank, agent, creator, style",
    ]);
    const order = await app.inject("/api/v1/risk?season_id=s1&order=sideways");
    expect(error(order.body).message).to.match(/allowed values: asc, desc$/);
  });
});
