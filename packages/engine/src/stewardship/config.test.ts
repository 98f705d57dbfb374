import { expect } from "chai";
import { IndexerConfigError } from "../indexer/errors";
import { stewardshipConfigured, stewardshipSettings } from "./config";

const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const USD = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const POOL = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const OPERATOR = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

function fails(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(IndexerConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("stewardship monitor configuration", () => {
  it("is on when a token or a config file is given, by flag or environment", () => {
    expect(stewardshipConfigured({}, {})).to.equal(false);
    expect(stewardshipConfigured({}, { AUGUR_STEWARD_TOKEN: "" })).to.equal(false);
    expect(stewardshipConfigured({ "steward-token": TOKEN }, {})).to.equal(true);
    expect(stewardshipConfigured({}, { AUGUR_STEWARD_CONFIG: "s.json" })).to.equal(true);
  });

  it("reads flags over the environment over the file, lowercasing and de-duplicating addresses", () => {
    const file = JSON.stringify({
      token: TOKEN,
      usd: USD,
      pools: [POOL],
      excluded: [OPERATOR],
      startBlock: 7,
    });
    const settings = stewardshipSettings(
      { "steward-config": "steward.json", "steward-start-block": "12" },
      {
        AUGUR_STEWARD_EXCLUDED: `${OPERATOR}, ${OPERATOR.toLowerCase()},${USD}`,
        AUGUR_STEWARD_START_BLOCK: "99",
      },
      (name) => {
        expect(name).to.equal("steward.json");
        return file;
      },
    );
    expect(settings).to.deep.equal({
      token: TOKEN.toLowerCase(),
      usd: USD.toLowerCase(),
      pools: [POOL.toLowerCase()],
      excluded: [OPERATOR.toLowerCase(), USD.toLowerCase()].sort(),
      startBlock: 12,
    });
  });

  it("names the field that is missing or wrong, in one line", () => {
    expect(fails(() => stewardshipSettings({}, {}))).to.contain("--steward-token");
    expect(fails(() => stewardshipSettings({ "steward-token": TOKEN }, {}))).to.contain("--steward-usd");
    expect(fails(() => stewardshipSettings({ "steward-token": TOKEN, "steward-usd": USD }, {}))).to.contain(
      "--steward-pools",
    );
    expect(
      fails(() =>
        stewardshipSettings({ "steward-token": "0x12", "steward-usd": USD, "steward-pools": POOL }, {}),
      ),
    ).to.equal("--steward-token must be a 20-byte 0x address, not '0x12'");
    // A mixed-case address with a wrong checksum is a typo, not an address.
    const badSum = TOKEN.replace("5F", "5f");
    expect(
      fails(() =>
        stewardshipSettings({ "steward-token": badSum, "steward-usd": USD, "steward-pools": POOL }, {}),
      ),
    ).to.contain("--steward-token must be");
    expect(fails(() => stewardshipSettings({ "steward-config": "x.json" }, {}, () => "{ nope"))).to.contain(
      "--steward-config x.json:",
    );
    expect(
      fails(() => stewardshipSettings({ "steward-config": "x.json" }, {}, () => '{"tokn": "0x"}')),
    ).to.contain("unknown key 'tokn'");
    expect(
      fails(() => stewardshipSettings({ "steward-config": "x.json" }, {}, () => '{"pools": "0x"}')),
    ).to.contain("pools must be an array");
    expect(
      fails(() =>
        stewardshipSettings({ "steward-token": TOKEN, "steward-usd": TOKEN, "steward-pools": POOL }, {}),
      ),
    ).to.contain("must differ");
  });
});
