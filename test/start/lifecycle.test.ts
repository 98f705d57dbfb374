import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { SQLITE_FILE_NAME } from "@augur/engine";
import { demoAgents } from "../../scripts/start/agents";
import { apiJson } from "./demo-site";
import { eventually, loadEveryCore, pidsRunning, startDemo, waitFor, type Demo } from "./process";

// Seasons of 6 simulated hours: the agents are first scored in hour 5, so the first season ends
// with numbers, and the demo crosses its end a few seconds after it is up.
const SEASON_HOURS = 6;
const ARGS = ["--ci", "--port", "0", "--hour-ms", "200", "--season-hours", `${SEASON_HOURS}`];

interface SeasonView {
  id: string;
  startsAt: number;
  endsAt: number;
}

describe("npm start past a season's end, then Ctrl-C under load", function () {
  this.timeout(300_000);
  const agents = demoAgents(6, ["A", "B", "C"]);
  let dataDir: string;
  let demo: Demo;
  let origin: string;
  let rpcPort: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "augur-start-seasons-"));
    // Its own process group, as a terminal's foreground job; --duration only bounds a run whose
    // test died half-way.
    demo = startDemo([...ARGS, "--duration", "600", "--data-dir", dataDir], { detached: true });
    [, origin] = (await waitFor(demo, /^api\s+(\S+)\/api\/v1$/m)) as [string, string];
    [, rpcPort] = (await waitFor(demo, /^chain\s+http:\/\/127\.0\.0\.1:(\d+)/m)) as [string, string];
  });

  after(async () => {
    if (!demo.exited()) process.kill(-demo.child.pid!, "SIGKILL");
    await demo.exit;
    for (const pid of pidsRunning("node", "--port", rpcPort ?? "-")) process.kill(pid, "SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("seals the ended season's final scores, opens the next at its end and registers every agent for it", async () => {
    const [, endedAt, finalAsOf] = (await waitFor(
      demo,
      /^season demo ended at (\S+): final scores as of (\S+) sealed \((\d+) agents? scored\); season demo-2 runs to \S+/m,
    )) as [string, string, string];
    expect(finalAsOf).to.equal(endedAt);
    await waitFor(demo, /^hour \d+ · season demo-2 · /m);

    const { seasons } = await apiJson<{ seasons: SeasonView[] }>(origin, "/seasons");
    const first = seasons.find((s) => s.id === "demo")!;
    const second = seasons.find((s) => s.id === "demo-2")!;
    expect(first.endsAt - first.startsAt).to.equal(SEASON_HOURS * 3600);
    expect(second.startsAt).to.equal(first.endsAt);
    expect(new Date(first.endsAt * 1000).toISOString().replace(".000", "")).to.equal(endedAt);

    // The ended season: every agent's last score is as of its end, and some are numbers.
    const finals = await Promise.all(
      agents.map((a) =>
        apiJson<{ asOf: number; score: number | null }>(origin, `/agents/${a.id}/score?season_id=demo`),
      ),
    );
    for (const final of finals) expect(final.asOf).to.equal(first.endsAt);
    expect(finals.some((f) => f.score !== null)).to.equal(true);

    // The new one: every agent registered and scored in it (null until it has 5 decisions).
    await eventually(
      async () => {
        const answers = await Promise.all(
          agents.map((a) => fetch(`${origin}/api/v1/agents/${a.id}/score?season_id=demo-2`)),
        );
        return answers.every((r) => r.status === 200);
      },
      60_000,
      "a demo-2 score row for every agent",
    );
    expect(demo.exited(), demo.out()).to.equal(false);
  });

  it("Ctrl-C (SIGINT to the whole process group) with every core busy: exit 0, stopped, node gone, store closed", async () => {
    const nodes = pidsRunning("node", "--port", rpcPort);
    expect(nodes, "the demo's hardhat node").to.have.length(1);
    const load = loadEveryCore();
    try {
      await new Promise((r) => setTimeout(r, 1000)); // let the load bite first
      process.kill(-demo.child.pid!, "SIGINT");
      expect(await demo.exit, demo.out()).to.equal(0);
    } finally {
      load.stop();
    }
    expect(demo.out()).to.match(/^stopping…$/m);
    expect(demo.out()).to.match(/^stopped: server and store closed, node killed$/m);
    expect(pidsRunning("node", "--port", rpcPort), "the hardhat node after the stop").to.deep.equal([]);
    const store = join(dataDir, SQLITE_FILE_NAME);
    expect(existsSync(store)).to.equal(true);
    expect(existsSync(`${store}-wal`), "a -wal file: the store was not closed").to.equal(false);
    expect(existsSync(`${store}-shm`), "a -shm file: the store was not closed").to.equal(false);
  });
});
