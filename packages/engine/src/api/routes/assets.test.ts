import { expect } from "chai";
import { assetsOption, UsageError } from "../../config/env";
import { buildApp } from "../app";
import { openStore } from "../../store/open";
import { TEST_CHAIN_ID, TEST_NOW } from "../../../test-support/records/testing";

const META = "0xc74f000000000000000000000000000000d22fe0";
const NVDA = "0x00000000000000000000000000000000000000aa";

describe("asset directory: tickers for addresses", () => {
  it("parses --assets / AUGUR_ASSETS and refuses a malformed or repeated entry in one line", () => {
    expect(assetsOption(undefined)).to.deep.equal({});
    expect(assetsOption(` META=${META.toUpperCase().replace("0X", "0x")} , NVDA=${NVDA}`)).to.deep.equal({
      META,
      NVDA,
    });
    for (const bad of ["meta=0x1", `META:${META}`, `META=${META},META=${NVDA}`, "TOOLONGTICKER=" + META])
      expect(() => assetsOption(bad), bad).to.throw(UsageError);
  });

  it("serves the directory and takes a ticker wherever a route takes an asset address", async () => {
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    const app = await buildApp({
      store,
      chainId: TEST_CHAIN_ID,
      now: () => TEST_NOW,
      assets: { NVDA, META },
    });
    try {
      expect((await app.inject("/api/v1/assets")).json()).to.deep.equal({
        assets: [
          { ticker: "META", address: META },
          { ticker: "NVDA", address: NVDA },
        ],
      });
      const byTicker = await app.inject("/api/v1/consensus/META/14400");
      const byAddress = await app.inject(`/api/v1/consensus/${META}/14400`);
      expect(byTicker.statusCode).to.equal(200);
      expect(byTicker.json()).to.deep.equal(byAddress.json());
      expect(byTicker.json()).to.include({ asset: META, ticker: "META", window: 14400 });
      const unknown = await app.inject("/api/v1/consensus/AAPL/14400");
      expect([unknown.statusCode, unknown.json().error]).to.deep.equal([
        404,
        { code: "UNKNOWN_ASSET", message: "no asset has the ticker AAPL: known tickers are META, NVDA" },
      ]);
      const lower = await app.inject("/api/v1/consensus/meta/14400");
      expect(lower.statusCode).to.equal(400);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
