import { expect } from "chai";
import {
  AgentRetiredError,
  augurDomain,
  sealedRecord,
  sealRecord,
  typedDataTypes,
  UnknownAgentError,
  WrongSignerError,
} from "@augur/records";
import type { Wallet } from "ethers";
import { AugurScorer } from "../cycle/augur-scorer";
import { runCycle } from "../cycle/run";
import { anchorStep, riskStep, scoreStep } from "../cycle/steps/index";
import { latestRiskReadings, latestRiskRows } from "../store/queries/risk";
import { buildApp } from "../api/app";
import type { Store } from "../store/open";
import { latestScoreWithAnchor } from "../store/queries/scores";
import { TEST_CHAIN_ID, testWallet } from "../../test-support/records/testing";
import { instantKeeper, SITE_NOW, SITE_SEASON, seededSiteStore } from "../../test-support/site/testing";
import { ingestRetirement } from "./retire";

const HOUR = 3600;
const AT = SITE_NOW + 2 * HOUR;
const ctx = { chainId: TEST_CHAIN_ID, now: () => AT + 60 };

async function retirement(agentId: string, key: Wallet, retiredAt = AT) {
  const message = { agentId, seasonId: SITE_SEASON, retiredAt };
  const signature = await key.signTypedData(
    augurDomain(TEST_CHAIN_ID),
    typedDataTypes("Retirement"),
    message,
  );
  return { message, signature };
}

/** Every vault's six readings and risk row the cycle seals at `at` (after anchoring what is there). */
async function riskAt(store: Store, at: number): Promise<string[]> {
  const anchors = await store.db.selectFrom("anchors").select("anchor_index").execute();
  await runCycle({ store, steps: [anchorStep(instantKeeper(anchors.length)), riskStep()], now: () => at });
  const readings = await latestRiskReadings(store.db, SITE_SEASON);
  const rows = await latestRiskRows(store.db, SITE_SEASON);
  return [...readings.map((r) => r.body), ...rows.map((r) => r.body)];
}

/** Ada's creator inputs (c1 also registered bob) in the score the cycle seals the hour after AT. */
async function adaCreatorInputs(store: Store): Promise<string[]> {
  const anchors = await store.db.selectFrom("anchors").select("anchor_index").execute();
  await runCycle({
    store,
    steps: [anchorStep(instantKeeper(anchors.length)), scoreStep(new AugurScorer())],
    now: () => AT + HOUR,
  });
  const row = await latestScoreWithAnchor(store.db, "ada", SITE_SEASON);
  const manifest = JSON.parse(row!.manifest) as { measured: { creator_inputs: Array<{ agent: string }> } };
  return manifest.measured.creator_inputs.map((c) => c.agent);
}

describe("agent retirement: a signed, sealed lifecycle record", function () {
  this.timeout(120_000);
  const bob = testWallet("site agent bob");

  it('"the creator\'s other active agents": a retired agent is not one of them (its creator term input is dropped)', async () => {
    const control = await seededSiteStore();
    expect(await adaCreatorInputs(control)).to.deep.equal(["bob"]);
    await control.close();

    const store = await seededSiteStore();
    await ingestRetirement(store, await retirement("bob", bob), ctx);
    expect(await adaCreatorInputs(store)).to.deep.equal([]);
    await store.close();
  });

  it("is sealed and logged once; a second, different one, another key or an unknown agent is refused with nothing written", async () => {
    const store = await seededSiteStore();
    const submission = await retirement("bob", bob);
    const first = await ingestRetirement(store, submission, ctx);
    const { seal } = sealRecord(sealedRecord("Retirement", TEST_CHAIN_ID, submission.message));
    expect(first).to.deep.include({ seal, retiredAt: AT, created: true });
    expect(await store.log.leafIndexOf(store.db, seal)).to.equal(first.leafIndex);
    expect(await ingestRetirement(store, submission, ctx)).to.deep.include({ seal, created: false });
    const size = await store.log.size(store.db);
    const refused = async (s: { message: unknown; signature: unknown }) =>
      ingestRetirement(store, s, ctx).then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(await refused(await retirement("bob", bob, AT + 1))).to.be.instanceOf(AgentRetiredError);
    expect(await refused(await retirement("ada", bob))).to.be.instanceOf(WrongSignerError);
    expect(await refused(await retirement("zed", bob))).to.be.instanceOf(UnknownAgentError);
    expect(await store.log.size(store.db)).to.equal(size);

    // POST /api/v1/retirements answers the same, and the site says "retired".
    const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => AT + 60 });
    const again = await app.inject({ method: "POST", url: "/api/v1/retirements", payload: submission });
    expect([again.statusCode, again.json().created]).to.deep.equal([200, false]);
    const other = await app.inject({
      method: "POST",
      url: "/api/v1/retirements",
      payload: await retirement("bob", bob, AT + 2),
    });
    expect([other.statusCode, other.json().error.code]).to.deep.equal([409, "AGENT_RETIRED"]);
    const evidence = await app.inject({
      method: "GET",
      url: `/api/v1/agents/bob/evidence?season_id=${SITE_SEASON}`,
    });
    expect(evidence.json().retiredAt).to.equal(AT);
    const page = await app.inject({ method: "GET", url: `/agents/bob?season=${SITE_SEASON}` });
    expect(page.body).to.match(/<strong>retired<\/strong> since/);
    const active = await app.inject({ method: "GET", url: `/agents/ada?season=${SITE_SEASON}` });
    expect(active.body).to.not.include("<strong>retired</strong>");
    await app.close();
    await store.close();
  });

  it('"It is not the provenance grade … deliberately apart": evidence that moves (a retirement, one more anchor) moves no risk number', async () => {
    const control = await seededSiteStore();
    const changed = await seededSiteStore();
    const app = await buildApp({ store: changed, chainId: TEST_CHAIN_ID, now: () => AT + 60 });
    const evidence = async () =>
      (
        await app.inject({ method: "GET", url: `/api/v1/agents/bob/evidence?season_id=${SITE_SEASON}` })
      ).json();
    const before = await evidence();
    await ingestRetirement(changed, await retirement("bob", bob), ctx);
    const [same, moved] = [await riskAt(control, AT + HOUR), await riskAt(changed, AT + HOUR)];
    const after = await evidence();
    expect([before.retiredAt, after.retiredAt]).to.deep.equal([null, AT]);
    expect(after.records.total).to.equal(before.records.total); // a retirement is not an input record
    expect(moved).to.have.length(6 * 7);
    expect(moved).to.deep.equal(same);
    await app.close();
    await Promise.all([control.close(), changed.close()]);
  });
});
