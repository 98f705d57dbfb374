import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { Wallet } from "ethers";
import {
  appendSeals,
  deployRegistry,
  HARDHAT_KEYS,
  sharedHardhatNode,
  type HardhatNode,
} from "../../../test-support/keeper/testing";
import { openStore } from "../../store/open";
import { main } from "../main";
import { fakeIo } from "../../../test-support/cli/testing";

async function run(argv: string[]) {
  const io = fakeIo();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

const CHAIN_VARS = [
  "KEEPER_PRIVATE_KEY",
  "AUGUR_RPC_URL",
  "AUGUR_REGISTRY",
  "DATABASE_URL",
  "AUGUR_CHAIN_ID",
];

describe("augur keeper and augur cycle against a hardhat node", () => {
  let node: HardhatNode;
  let dir: string;
  let registry: string;
  const saved = new Map(CHAIN_VARS.map((k) => [k, process.env[k]]));

  before(async () => {
    node = await sharedHardhatNode();
    registry = await deployRegistry(node.provider, new Wallet(HARDHAT_KEYS[1]).address);
  });
  after(async () => {
    await node?.stop();
  });
  beforeEach(async () => {
    for (const k of CHAIN_VARS) delete process.env[k];
    dir = mkdtempSync(join(tmpdir(), "augur-keeper-cli-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const [k, v] of saved)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  async function seed(tag: string, count: number) {
    const store = await openStore({ kind: "sqlite", file: join(dir, "augur.sqlite") });
    await appendSeals(store, tag, count);
    await store.close();
  }

  it("keeper --help lists every chain flag and the key's sources", async () => {
    const r = await run(["keeper", "--help"]);
    expect(r.code).to.equal(0);
    for (const flag of [
      "--once",
      "--rpc",
      "--registry",
      "--confirmations",
      "--keystore",
      "KEEPER_PRIVATE_KEY",
      "--data-dir",
    ]) {
      expect(r.out).to.contain(flag);
    }
  });

  it("refuses a missing key, a bad registry address and a bad number, saying which", async () => {
    await seed("refusals", 1);
    const base = ["keeper", "--once", "--data-dir", dir, "--rpc", node.url];
    const noKey = await run([...base, "--registry", registry]);
    expect([noKey.code, noKey.err]).to.deep.equal([
      1,
      "augur keeper: no keeper key: set KEEPER_PRIVATE_KEY or pass --keystore\n",
    ]);
    process.env.KEEPER_PRIVATE_KEY = HARDHAT_KEYS[1];
    const badAddress = await run([...base, "--registry", "0x1234"]);
    expect(badAddress.code).to.equal(1);
    expect(badAddress.err).to.contain("--registry must be a 20-byte 0x address");
    const badNumber = await run([...base, "--registry", registry, "--confirmations", "0"]);
    expect(badNumber.code).to.equal(2);
    expect(badNumber.err).to.contain("--confirmations must be between 1 and 1000");
    const noContract = await run([...base, "--registry", `0x${"11".repeat(20)}`]);
    expect(noContract.code).to.equal(1);
    expect(noContract.err).to.contain("no contract at");
  });

  it("cycle refuses a stewardship token with no contract behind it, in one line", async () => {
    const token = `0x${"11".repeat(20)}`;
    process.env.KEEPER_PRIVATE_KEY = HARDHAT_KEYS[1];
    const r = await run([
      "cycle",
      "--once",
      "--data-dir",
      dir,
      "--rpc",
      node.url,
      "--registry",
      registry,
      "--steward-token",
      token,
      "--steward-usd",
      `0x${"22".repeat(20)}`,
      "--steward-pools",
      `0x${"33".repeat(20)}`,
    ]);
    expect([r.code, r.err]).to.deep.equal([
      1,
      `augur cycle: ${token} has no decimals() (no contract there?)\n`,
    ]);
  });

  it("keeper --once anchors the head and stores it; the next run finds it anchored; cycle --once anchors new leaves", async () => {
    await seed("cli", 7);
    process.env.KEEPER_PRIVATE_KEY = HARDHAT_KEYS[1];
    const args = ["--once", "--data-dir", dir, "--rpc", node.url, "--registry", registry, "--poll-ms", "50"];
    const first = await run(["keeper", ...args]);
    expect(first.code, first.err).to.equal(0);
    expect(first.out).to.match(/head 7 anchored at index 0, tx 0x[0-9a-f]{64}, block \d+/);
    const second = await run(["keeper", ...args]);
    expect(second.code, second.err).to.equal(0);
    expect(second.out).to.contain("head 7 is already anchored");

    await seed("cli more", 3);
    const cycle = await run(["cycle", ...args]);
    expect(cycle.code, cycle.err).to.equal(0);
    expect(cycle.out).to.contain("keeper: head 10 anchored at index 1");
    const store = await openStore({ kind: "sqlite", file: join(dir, "augur.sqlite") });
    try {
      const anchors = await store.db
        .selectFrom("anchors")
        .select(["anchor_index", "tree_size"])
        .orderBy("anchor_index")
        .execute();
      expect(anchors).to.deep.equal([
        { anchor_index: 0, tree_size: 7 },
        { anchor_index: 1, tree_size: 10 },
      ]);
    } finally {
      await store.close();
    }
  });
});
