import { expect } from "chai";
import hre from "hardhat";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { BadArgumentError } from "@augur/agent";
import { assertTaskMaySpend } from "../../tasks/lib/spend-guard";
import { rejection } from "../shared/rejection";
import { AGENT, agentsOnReplica, expectRefusal, nonceOf, quietly } from "./helpers";

const SEAL = `0x${"cd".repeat(32)}`;
const WIND_DOWN = {
  mode: "wind-down",
  since: "2027-03-02",
  cause: { kind: "trigger", trigger: "holders", day: "2027-03-01", seal: SEAL },
};
const MAINTENANCE = {
  mode: "maintenance",
  since: "2027-02-09",
  cause: { kind: "trigger", trigger: "volume", day: "2027-02-08", seal: SEAL },
};

/** A tiny engine stand-in: answers GET /api/v1/mode with whatever mode the test sets. */
class FakeEngine {
  mode: object = WIND_DOWN;
  readonly asked: string[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeEngine> {
    const engine: FakeEngine = new FakeEngine(
      createServer((request, response) => {
        engine.asked.push(request.url ?? "");
        response.writeHead(request.url === "/api/v1/mode" ? 200 : 404, {
          "content-type": "application/json",
        });
        response.end(JSON.stringify(engine.mode));
      }),
    );
    await new Promise<void>((done) => engine.server.listen(0, "127.0.0.1", done));
    return engine;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}

describe("no new spend goes in: operator spend tasks pass the mode guard", function () {
  let engine: FakeEngine;
  before(async () => (engine = await FakeEngine.start()));
  after(() => engine.close());
  beforeEach(() => (engine.mode = WIND_DOWN));

  it("stake:deposit is refused in wind-down, naming the mode and since when, and sends nothing", async function () {
    await loadFixture(agentsOnReplica);
    for (const outsideAgent of [false, true]) {
      await expectRefusal(
        "stake:deposit",
        { amount: "100", account: AGENT, json: true, api: engine.origin, outsideAgent },
        "SpendRefusedError",
        /refused: depositing stake is new spend, and the system is winding down since 2027-03-02 \(distinct holders fell/,
      );
    }
    expect(engine.asked).to.include("/api/v1/mode");
  });

  it("replica:faucet is refused in wind-down", async function () {
    await loadFixture(agentsOnReplica);
    await expectRefusal(
      "replica:faucet",
      { amount: "100", account: AGENT, json: true, api: engine.origin },
      "SpendRefusedError",
      /refused: funding an agent from the faucet is new spend, and the system is winding down since 2027-03-02/,
    );
  });

  it("AUGUR_API names the engine when --api is not given", async function () {
    await loadFixture(agentsOnReplica);
    const saved = process.env.AUGUR_API;
    process.env.AUGUR_API = engine.origin;
    try {
      await expectRefusal(
        "stake:deposit",
        { amount: "100", account: AGENT, json: true },
        "SpendRefusedError",
        /winding down since 2027-03-02/,
      );
    } finally {
      if (saved === undefined) delete process.env.AUGUR_API;
      else process.env.AUGUR_API = saved;
    }
  });

  it("maintenance refuses a house agent's deposit, lets an outside agent's through; stake:withdraw is never refused", async function () {
    await loadFixture(agentsOnReplica);
    engine.mode = MAINTENANCE;
    await expectRefusal(
      "stake:deposit",
      { amount: "100", account: AGENT, json: true, api: engine.origin },
      "SpendRefusedError",
      /refused: depositing stake is new spend, and the system is in maintenance mode since 2027-02-09 \(organic volume/,
    );
    const before = await nonceOf(AGENT);
    const deposited = (await quietly(() =>
      hre.run("stake:deposit", {
        amount: "5",
        account: AGENT,
        json: true,
        api: engine.origin,
        outsideAgent: true,
      }),
    )) as { stake: bigint };
    expect(deposited.stake).to.equal(105n * 10n ** 6n);
    expect(await nonceOf(AGENT)).to.be.greaterThan(before);
    engine.mode = WIND_DOWN;
    const withdrawn = (await quietly(() =>
      hre.run("stake:withdraw", { amount: "5", account: AGENT, json: true }),
    )) as { stake: bigint };
    expect(withdrawn.stake).to.equal(100n * 10n ** 6n);
  });

  it("an engine that cannot be read refuses (fails closed)", async function () {
    await loadFixture(agentsOnReplica);
    await expectRefusal(
      "stake:deposit",
      { amount: "100", account: AGENT, json: true, api: `${engine.origin}/nowhere/` },
      "SpendRefusedError",
      /mode could not be read from http:\/\/127\.0\.0\.1:\d+\/nowhere\/api\/v1\/mode: HTTP 404$/,
    );
  });

  it("on a live network a spend task must name its engine; on a local node without one there is no mode to keep", async function () {
    const live = { network: { name: "robinhood" } } as typeof hre;
    const error = await rejection(assertTaskMaySpend(live, { outsideAgent: false }, "depositing stake"));
    expect(error).to.be.instanceOf(BadArgumentError);
    expect(error.message).to.equal(
      "--api is needed: depositing stake on robinhood is spend, which the engine's mode governs (pass --api <origin> or set AUGUR_API)",
    );
    const asked = engine.asked.length;
    await assertTaskMaySpend(hre, { outsideAgent: false }, "depositing stake");
    expect(engine.asked.length).to.equal(asked);
  });
});
