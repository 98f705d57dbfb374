import { expect } from "chai";
import { buildApp } from "../api/app";
import { appendModeRecord } from "../store/queries/modes";
import { TEST_CHAIN_ID } from "../../test-support/records/testing";
import { testBackends } from "../../test-support/store/testing";
import { SpendRefusedError } from "./errors";
import { assertMaySpend } from "./guard";
import { MODE_FORMAT, type ModeBody } from "./records";
import { assertMaySpendAt, spendRefusal, type SpendScope } from "./spend";
import type { ModeState } from "./state";

const SEAL = `0x${"ab".repeat(32)}` as const;
const volume = { kind: "trigger", trigger: "volume", day: "2027-02-08", seal: SEAL } as const;
const holders = { kind: "trigger", trigger: "holders", day: "2027-03-01", seal: SEAL } as const;
const STATES: Record<ModeState["mode"], Pick<ModeState, "mode" | "since" | "cause">> = {
  active: { mode: "active", since: null, cause: null },
  maintenance: { mode: "maintenance", since: "2027-02-09", cause: volume },
  "wind-down": { mode: "wind-down", since: "2027-03-02", cause: holders },
  archived: { mode: "archived", since: "2027-03-05", cause: holders },
};

/** A fetch that answers `body` with `status`, recording the URL it was asked for. */
function serving(body: unknown, status = 200) {
  const asked: string[] = [];
  const fake = (async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as unknown as typeof fetch;
  return { fake, asked };
}

async function refusalAt(origin: string, body: unknown, scope: SpendScope = "operator", status = 200) {
  try {
    await assertMaySpendAt(origin, "depositing stake", scope, serving(body, status).fake);
  } catch (error) {
    return error as Error;
  }
  return null;
}

describe("no new spend goes in: the spend guard (modes/spend.ts)", function () {
  it("maintenance refuses the operator's spend and lets an outside agent's through; wind-down and archived refuse both", function () {
    const expected: Record<string, [boolean, boolean]> = {
      active: [false, false],
      maintenance: [true, false],
      "wind-down": [true, true],
      archived: [true, true],
    };
    for (const [mode, [operator, any]] of Object.entries(expected)) {
      const state = STATES[mode as ModeState["mode"]];
      expect(spendRefusal(state, "x", "operator") !== null, `${mode} operator`).to.equal(operator);
      expect(spendRefusal(state, "x", "any") !== null, `${mode} any`).to.equal(any);
    }
  });

  it("names the mode, since when and why, in one line", function () {
    const refused = spendRefusal(STATES["wind-down"], "depositing stake");
    expect(refused).to.be.instanceOf(SpendRefusedError);
    expect(refused!.message).to.equal(
      `refused: depositing stake is new spend, and the system is winding down since 2027-03-02 (distinct holders fell by 15 % or more within 30 days (stewardship day 2027-03-01, record ${SEAL.slice(0, 10)}…))`,
    );
    expect(spendRefusal(STATES.maintenance, "funding")!.message).to.match(
      /^refused: funding is new spend, and the system is in maintenance mode since 2027-02-09 \(organic volume/,
    );
    expect(spendRefusal(STATES.archived, "funding")!.message).to.match(
      /the system is archived since 2027-03-05/,
    );
  });

  it("reads GET /api/v1/mode of the named origin and refuses in wind-down", async function () {
    const { fake, asked } = serving({ ...STATES["wind-down"], today: "2027-03-04", history: [] });
    const error = await assertMaySpendAt("https://augur.example/", "depositing stake", "any", fake).catch(
      (e: Error) => e,
    );
    expect(asked).to.deep.equal(["https://augur.example/api/v1/mode"]);
    expect(error).to.be.instanceOf(SpendRefusedError);
    expect((error as Error).message).to.match(/winding down since 2027-03-02/);
    const prefixed = serving(STATES.active);
    await assertMaySpendAt("https://host.example/augur", "x", "operator", prefixed.fake);
    expect(prefixed.asked).to.deep.equal(["https://host.example/augur/api/v1/mode"]);
    expect(await refusalAt("http://127.0.0.1:8080", STATES.active)).to.equal(null);
    expect(await refusalAt("http://127.0.0.1:8080", STATES.maintenance, "any")).to.equal(null);
    expect(await refusalAt("http://127.0.0.1:8080", STATES.maintenance)).to.be.instanceOf(SpendRefusedError);
  });

  it("fails closed: an unreadable engine, an answer that is not a mode, or an origin that is not a URL refuses", async function () {
    const cases: [string, unknown, number, RegExp][] = [
      [
        "http://127.0.0.1:8080",
        { error: "down" },
        503,
        /could not be read from http:\/\/127\.0\.0\.1:8080\/api\/v1\/mode: HTTP 503/,
      ],
      ["http://127.0.0.1:8080", { mode: "paused", since: null }, 200, /the answer is not a mode/],
      ["http://127.0.0.1:8080", null, 200, /the answer is not a mode/],
      [
        "augur.example",
        STATES.active,
        200,
        /needs the engine's origin as an http\(s\) URL .* got "augur\.example"/,
      ],
      ["ftp://augur.example", STATES.active, 200, /needs the engine's origin as an http\(s\) URL/],
    ];
    for (const [origin, body, status, message] of cases) {
      const error = await refusalAt(origin, body, "operator", status);
      expect(error, origin).to.be.instanceOf(SpendRefusedError);
      expect(error!.message).to.match(message);
      expect(error!.message).to.not.include("\n");
    }
    const unreachable = await assertMaySpendAt("http://127.0.0.1:1", "depositing stake").catch(
      (e: Error) => e,
    );
    expect(unreachable).to.be.instanceOf(SpendRefusedError);
    expect((unreachable as Error).message).to.match(
      /could not be read from http:\/\/127\.0\.0\.1:1\/api\/v1\/mode: /,
    );
  });

  for (const backend of testBackends()) {
    it(`the engine's own API and its store refuse alike in wind-down (${backend.name})`, async function () {
      const store = await backend.open();
      const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => 1_804_000_000 }, {});
      try {
        const body: ModeBody = {
          format: MODE_FORMAT,
          previous: null,
          declared: "2027-03-03",
          ...STATES["wind-down"],
        } as ModeBody;
        await store.db
          .transaction()
          .execute((trx) => appendModeRecord(trx, { kind: "mode", day: "2027-03-03", body }, 1_804_000_000));
        // GET /api/v1/mode answered by the real route, handed to the HTTP guard as its fetch.
        const viaApi = (async (url: string) => {
          const answer = await app.inject(new URL(url).pathname);
          return new Response(answer.body, { status: answer.statusCode });
        }) as unknown as typeof fetch;
        const remote = await assertMaySpendAt(
          "http://engine.test",
          "funding a house agent",
          "operator",
          viaApi,
        ).catch((e: Error) => e);
        const local = await assertMaySpend(store.db, "funding a house agent").catch((e: Error) => e);
        expect(remote).to.be.instanceOf(SpendRefusedError);
        expect((remote as Error).message).to.match(
          /^refused: funding a house agent is new spend, and the system is winding down since 2027-03-02 /,
        );
        expect((remote as Error).message).to.equal((local as Error).message);
      } finally {
        await app.close();
        await store.close();
      }
    });
  }
});
