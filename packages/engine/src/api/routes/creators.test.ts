import { expect } from "chai";
import { creatorsOption, UsageError } from "../../config/env";
import { buildApp } from "../app";
import { openStore } from "../../store/open";
import { TEST_CHAIN_ID, TEST_NOW } from "../../../test-support/records/testing";

const ALICE = "0xa11ce00000000000000000000000000000000001";
const BOB = "0x00000000000000000000000000000000000000bb";

describe("creator directory: names for creator addresses", () => {
  it("parses --creators / AUGUR_CREATORS and refuses a malformed entry, a name or an address twice", () => {
    expect(creatorsOption(undefined)).to.deep.equal({});
    expect(creatorsOption(" , ")).to.deep.equal({});
    expect(
      creatorsOption(` Alice Labs=${ALICE.toUpperCase().replace("0X", "0x")} , b.o-b_2=${BOB}`),
    ).to.deep.equal({ "Alice Labs": ALICE, "b.o-b_2": BOB });
    expect(creatorsOption(`${"x".repeat(32)}=${ALICE}`)).to.deep.equal({ ["x".repeat(32)]: ALICE });
    const refused: [string, RegExp][] = [
      [`${"x".repeat(33)}=${ALICE}`, /NAME=0xaddress/],
      [`=${ALICE}`, /NAME=0xaddress/],
      [`Alice&Co=${ALICE}`, /not 'Alice&Co=/],
      [`Alice=0x12`, /not 'Alice=0x12'/],
      [`Alice:${ALICE}`, /NAME=0xaddress/],
      [`Alice=${ALICE},Alice=${BOB}`, /names Alice twice/],
      [
        `Alice=${ALICE},Bob=${ALICE.toUpperCase().replace("0X", "0x")}`,
        /names 0xa11ce0.* twice \(Alice and Bob\)/,
      ],
    ];
    for (const [bad, message] of refused)
      expect(() => creatorsOption(bad), bad).to.throw(UsageError, message);
  });

  it("serves the directory sorted by name, lowercase addresses, and an empty one when none is configured", async () => {
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    const named = await buildApp({
      store,
      chainId: TEST_CHAIN_ID,
      now: () => TEST_NOW,
      creators: { zed: BOB, "Alice Labs": ALICE.toUpperCase().replace("0X", "0x") },
    });
    const bare = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => TEST_NOW });
    try {
      const res = await named.inject("/api/v1/creators");
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({
        creators: [
          { name: "Alice Labs", address: ALICE },
          { name: "zed", address: BOB },
        ],
      });
      expect((await bare.inject("/api/v1/creators")).json()).to.deep.equal({ creators: [] });
    } finally {
      await named.close();
      await bare.close();
      await store.close();
    }
  });
});
