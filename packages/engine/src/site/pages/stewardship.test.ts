import { expect } from "chai";
import Fastify from "fastify";
import { stewardshipPage } from "./stewardship";

const thresholds = {
  holdersArmAbove: 100,
  holdersDeclineBps: 1500,
  volumeFloorUsd: 500,
  volumeRunDays: 30,
  windowDays: 30,
};

describe("stewardship page", () => {
  it("shows the state, both series with a text alternative, and each cluster's evidence (escaped)", async () => {
    const app = Fastify();
    app.get("/api/v1/stewardship", async () => ({
      version: "stewardship/v1",
      thresholds,
      monitored: {
        chainId: 31337,
        token: "0x" + "ab".repeat(20),
        pools: ["0x" + "cd".repeat(20)],
        excluded: [],
      },
      state: "maintenance",
      stateSince: "2026-12-20",
      asOf: 1_800_000_000 + 3 * 86_400,
      days: [0, 1, 2].map((i) => ({
        date: `2026-12-2${i}`,
        at: 1_800_000_000 + i * 86_400,
        holders: 150 - i,
        organicVolumeUsd: 400 + i,
        excludedVolumeUsd: 7000,
        holdersTrigger: false,
        volumeTrigger: i === 2,
        bothTrigger: false,
        volumeDaysBelow: 28 + i,
        state: i === 2 ? "maintenance" : "normal",
        seal: `0x${String(i).repeat(64)}`,
        anchor: { status: i === 0 ? "anchored" : "pending" },
      })),
      clusters: [
        { criterion: "b", addresses: ["0xabc", "<script>"], measures: { buys: 4, roundTrips: 3 } },
        { criterion: "b", addresses: [], measures: { wallets: 3, buys: 9, round_trips: 9 } },
      ],
    }));
    await app.ready();
    // Templates are formatted source: compare text with whitespace runs collapsed.
    const page = (await stewardshipPage(app)).replace(/\s+/g, " ");
    await app.close();
    expect(page).to.contain("State: maintenance mode").and.to.contain("since 2026-12-20");
    expect(page.match(/<svg /g)).to.have.length(2);
    // The promised threshold lines, drawn and labelled on both charts.
    expect(page.match(/<g class="threshold">/g)).to.have.length(2);
    expect(page).to.contain(">arms above 100</text>").and.to.contain(">$500 floor</text>");
    expect(page).to.contain('aria-labelledby="holders-chart-title holders-chart-desc"');
    expect(page).to.contain('<title id="volume-chart-title">');
    expect(page).to.contain("Holders over 3 days").and.to.contain("against the $500 floor");
    expect(page).to.match(/Criterion \(b\):\s+2 addresses/);
    expect(page).to.match(/Criterion \(b\):\s+3 lone wallets, in aggregate \(no address is named\)/);
    expect(page).to.contain(`token <code>0x${"ab".repeat(20)}</code> on chain 31337`);
    // Each day's row: the run under the floor, the triggers that held, the state and the seal.
    expect(page).to.contain('<td class="num">30</td> <td>volume</td> <td>maintenance mode</td>');
    expect(page)
      .to.contain("0x00000000…0000</code> anchored")
      .and.to.contain("0x22222222…2222</code> pending");
    expect(page).to.contain("&lt;script&gt;").and.not.to.contain('"<script>"');
  });

  it("shows the LP timelock as read, and the alarm in its section", async () => {
    const app = Fastify();
    const lock = `0x${"11".repeat(20)}`;
    const operator = `0x${"22".repeat(20)}`;
    const reason = `the position 7 left the lock before its expiry: it is held by ${operator}`;
    const view = (alarm: string | null) => ({
      version: "stewardship/v1",
      thresholds,
      monitored: { chainId: 31337, token: "0x" + "ab".repeat(20), pools: [], excluded: [] },
      state: "normal",
      stateSince: null,
      asOf: 1_800_000_000,
      days: [],
      clusters: [],
      lpLock: {
        lock,
        positionManager: `0x${"33".repeat(20)}`,
        position: "7",
        unlockAt: 1_900_000_000,
        holder: alarm ? operator : lock,
        liquidity: "1000",
        block: 42,
        alarm,
      },
      lpLockAlarm: alarm ? { since: "2027-01-02", reason: alarm } : null,
    });
    let current = view(null);
    app.get("/api/v1/stewardship", async () => current);
    await app.ready();
    const quiet = (await stewardshipPage(app)).replace(/\s+/g, " ");
    current = view(reason);
    const alarmed = (await stewardshipPage(app)).replace(/\s+/g, " ");
    await app.close();
    expect(quiet).to.contain("position #7").and.to.contain("in place").and.not.to.contain("alarm since");
    expect(alarmed).to.contain(`<strong>alarm since 2027-01-02: ${reason}</strong>`);
  });

  it("says plainly that nothing is measured yet when no daily record exists", async () => {
    const app = Fastify();
    app.get("/api/v1/stewardship", async () => ({
      version: "stewardship/v1",
      thresholds,
      monitored: null,
      state: null,
      stateSince: null,
      asOf: null,
      days: [],
      clusters: [],
    }));
    await app.ready();
    const page = await stewardshipPage(app);
    await app.close();
    expect(page).to.contain("State: not measured yet");
    expect(page).not.to.contain("<svg");
  });
});
