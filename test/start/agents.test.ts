import { expect } from "chai";
import { seededRandom } from "@augur/scorer/src/referee/synthetic-input";
import {
  callOf,
  demoAgents,
  demoCreators,
  DemoStocksError,
  type DemoAgent,
} from "../../scripts/start/agents";

const STOCKS = ["NVDA", "TSLA", "META"];
const WAD = 10n ** 18n;

describe("npm start's demo agents (who trades and who calls what)", () => {
  it("default 6: one caller per creator, all on the same stock, which none of them trades", () => {
    const agents = demoAgents(6, STOCKS);
    const callers = agents.filter((a) => a.calls);
    expect(callers.map((a) => a.creatorName).sort()).to.deep.equal(["lumen", "northwind", "quarry"]);
    expect(new Set(callers.map((a) => a.calls))).to.deep.equal(new Set(["META"]));
    expect(callers.map((a) => a.asset)).to.not.include("META");
    // Someone still trades the called stock, and every stock has a trader.
    expect(new Set(agents.map((a) => a.asset))).to.deep.equal(new Set(STOCKS));
  });

  for (let count = 2; count <= 12; count += 1) {
    it(`${count} agents: every other one calls, never the stock it trades; the called stock is traded`, () => {
      const agents = demoAgents(count, STOCKS);
      const callers = agents.filter((a) => a.calls);
      expect(callers.length).to.equal(Math.ceil(count / 2));
      for (const agent of callers) expect(agent.calls, agent.id).to.not.equal(agent.asset);
      expect(agents.some((a) => !a.calls && a.asset === "META")).to.equal(true);
      expect(new Set(agents.map((a) => a.seed)).size).to.equal(count); // a stream each
    });
  }

  it("names every demo creator for the site: its name to the address its agents register with", () => {
    const names = demoCreators();
    expect(Object.keys(names).sort()).to.deep.equal(["lumen", "northwind", "quarry"]);
    for (const agent of demoAgents(12, STOCKS))
      expect(names[agent.creatorName], agent.id).to.equal(agent.creatorKey.address.toLowerCase());
  });

  it("refuses a replica with a single stock: there would be nothing to call but its own", () => {
    expect(() => demoAgents(6, ["NVDA"])).to.throw(DemoStocksError, /2 or more stocks/);
  });
});

describe("npm start's demo calls (callOf)", () => {
  const caller = demoAgents(6, STOCKS).find((a) => a.calls && a.style === "momentum")!;
  /** Two rises then a fall, over and over: never flat, so the style always reads a move. */
  const prices = (hour: number) =>
    [100n + BigInt(hour % 3), 100n + BigInt((hour + 1) % 3)].map((p) => p * WAD);

  /** 200 hours of one caller's calls from its own seed, counting the draws each took. */
  function season(agent: DemoAgent) {
    const random = seededRandom(agent.seed);
    return Array.from({ length: 200 }, (_, hour) => {
      let draws = 0;
      const counted = () => ((draws += 1), random());
      const [previous, current] = prices(hour) as [bigint, bigint];
      return { ...callOf(agent, hour, previous, current, counted), draws };
    });
  }

  it("is the same story on every run: the calls come from the agent's fixed seed", () => {
    expect(season(caller)).to.deep.equal(season(caller));
    expect(season(caller)).to.not.deep.equal(season({ ...caller, seed: caller.seed + 1 }));
  });

  it("takes exactly three draws a call, so a caller's stream never drifts out of step", () => {
    expect(new Set(season(caller).map((c) => c.draws))).to.deep.equal(new Set([3]));
  });

  it("calls both directions, at confidences of 55-90 % in whole percent", () => {
    const calls = season(caller);
    expect(new Set(calls.map((c) => c.direction))).to.deep.equal(new Set(["up", "down"]));
    for (const { confidenceBps } of calls) {
      expect(confidenceBps).to.be.within(5500, 9000);
      expect(confidenceBps % 100).to.equal(0);
    }
  });

  it("mostly follows its style's reading of the move, and has second thoughts now and then", () => {
    // A momentum caller reads a rise as up: about two calls in three follow it, not all.
    const calls = season(caller);
    const followed = calls.filter((c, hour) => {
      const [previous, current] = prices(hour) as [bigint, bigint];
      return (c.direction === "up") === current > previous;
    }).length;
    expect(followed / calls.length).to.be.within(0.55, 0.8);
  });
});
