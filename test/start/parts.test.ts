import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { expect } from "chai";
import ts from "typescript";
import { findSeason, openStore, SpendRefusedError, type Store } from "@augur/engine";
import { declareWindDown } from "@augur/engine/test-support";
import { formatGuide, shellWord } from "../../scripts/start/guide";
import { DEFAULT_SEASON_HOURS, parseStartOptions, StartUsageError } from "../../scripts/start/options";
import { DemoSeasons, demoSeasonId } from "../../scripts/start/seasons";
import { houseAgentsAct, MAINTENANCE_CADENCE_HOURS } from "../../scripts/start/cadence";
import { isoTime, plural } from "../../scripts/start/table";

const ROOT = resolve(__dirname, "../..");
const HOUR = 3600;

/**
 * Every file `from` loads through imports that stay at run time (not `import type`, not a dynamic
 * `import()`), following relative paths only (packages are installed, not generated).
 */
function staticImportGraph(from: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022);
    const specifiers: string[] = [];
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
      const typeOnly = ts.isImportDeclaration(statement)
        ? clause?.isTypeOnly ||
          (clause !== undefined &&
            clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly))
        : statement.isTypeOnly;
      if (!typeOnly) specifiers.push(statement.moduleSpecifier.text);
    }
    graph.set(file, specifiers);
    for (const specifier of specifiers.filter((s) => s.startsWith("."))) {
      const base = resolve(dirname(file), specifier);
      const target = [`${base}.ts`, join(base, "index.ts")].find((f) => {
        try {
          return readFileSync(f) !== undefined;
        } catch {
          return false;
        }
      });
      if (target) visit(target);
      else graph.set(base, []); // not a source file of the repo (e.g. generated): recorded as is
    }
  };
  visit(from);
  return graph;
}

describe("npm start's parts (no chain)", () => {
  describe("a fresh clone: what loads before the demo has compiled", () => {
    it("scripts/start.ts and the demo module reach no generated file (typechain-types/, artifacts/) statically", () => {
      for (const entry of ["scripts/start.ts", "scripts/start/demo.ts", "scripts/start/chain.ts"]) {
        const graph = staticImportGraph(join(ROOT, entry));
        expect(graph.size, entry).to.be.greaterThan(1);
        const generated = [...graph].filter(([file, imports]) =>
          [file, ...imports].some((s) => /typechain-types|artifacts\//.test(s)),
        );
        expect(
          generated.map(([file]) => file.slice(ROOT.length + 1)),
          entry,
        ).to.deep.equal([]);
      }
    });

    it("the check above sees a static import of generated types where there is one", () => {
      const graph = staticImportGraph(join(ROOT, "scripts/start/stewardship.ts"));
      expect(graph.get(join(ROOT, "scripts/start/stewardship.ts"))).to.include("../../typechain-types");
    });
  });

  describe("options", () => {
    it("defaults: 28-day seasons, quiet cycle lines", () => {
      const options = parseStartOptions([]);
      expect(options.seasonHours).to.equal(DEFAULT_SEASON_HOURS).and.to.equal(672);
      expect(options.verbose).to.equal(false);
      expect(parseStartOptions(["--verbose", "--season-hours", "6"])).to.include({
        verbose: true,
        seasonHours: 6,
      });
    });

    for (const bad of [
      ["--season-hours", "0"],
      ["--season-hours", "8761"],
      ["--season-hours", "2.5"],
    ]) {
      it(`refuses ${bad.join(" ")} with one line`, () => {
        expect(() => parseStartOptions(bad)).to.throw(StartUsageError, /--season-hours must be/);
      });
    }
  });

  describe("output", () => {
    it("plurals and ISO 8601 times", () => {
      expect(plural(1, "anchor")).to.equal("1 anchor");
      expect(plural(0, "anchor")).to.equal("0 anchors");
      expect(plural(2, "anchor")).to.equal("2 anchors");
      expect(isoTime(1_796_198_400)).to.equal("2026-12-02T08:00:00Z");
      expect(isoTime(1_796_198_459)).to.equal("2026-12-02T08:00:59Z");
    });

    it("shell words: bare when safe, single-quoted otherwise", () => {
      expect(shellWord("/tmp/x/deployments")).to.equal("/tmp/x/deployments");
      expect(shellWord("http://127.0.0.1:8545")).to.equal("http://127.0.0.1:8545");
      expect(shellWord("/home/a b/it's")).to.equal(`'/home/a b/it'\\''s'`);
    });

    it("the command block: verify, Hardhat task environment, the user's account, own agent", () => {
      const block = formatGuide({
        origin: "http://127.0.0.1:8787",
        rpc: "http://127.0.0.1:40803",
        registry: "0x8f86403A4DE0BB5791fa46B8e795C547942fE4Cf",
        seasonId: "demo",
        agentId: "northwind-momentum-1",
        agentAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        deploymentsDir: "/data dir/deployments",
        user: { address: "0xUSER", privateKey: "0xKEY", eth: 10_000n, usdg: 100_000n },
      });
      const lines = block.split("\n").map((l) => l.trim());
      expect(lines).to.include(
        "npx augur verify --api http://127.0.0.1:8787 --agent northwind-momentum-1 --season demo " +
          "--rpc http://127.0.0.1:40803 --registry 0x8f86403A4DE0BB5791fa46B8e795C547942fE4Cf",
      );
      expect(lines).to.include(
        "export LOCALHOST_RPC_URL=http://127.0.0.1:40803 AUGUR_DEPLOYMENTS_DIR='/data dir/deployments'",
      );
      expect(lines).to.include(
        "npx hardhat call:status --network localhost --agent 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      );
      expect(lines).to.include("export AGENT_PRIVATE_KEY=0xKEY");
      expect(block).to.contain("10,000 ETH and 100,000 USDG");
      expect(lines).to.include(
        "npx tsx scripts/start/agent.ts register --api http://127.0.0.1:8787 --agent my-agent",
      );
      // Every line is a command or a shell comment: the block pastes as it is.
      for (const line of lines.slice(1)) expect(line).to.match(/^(#|npx |export )/);
    });
  });

  it('"house-agent cadence may drop": every hour when active, one in four in maintenance, none once winding down or with no season open', () => {
    const hours = (mode: Parameters<typeof houseAgentsAct>[0], open = true) =>
      Array.from({ length: 8 }, (_, h) => h).filter((h) => houseAgentsAct(mode, h, open));
    expect(MAINTENANCE_CADENCE_HOURS).to.equal(4);
    expect(hours("active")).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(hours("maintenance")).to.deep.equal([0, 4]);
    expect(hours("wind-down")).to.deep.equal([]);
    expect(hours("archived")).to.deep.equal([]);
    // "no new spend goes in": a season the guard would not open leaves nothing to act in.
    expect(hours("active", false)).to.deep.equal([]);
    expect(hours("maintenance", false)).to.deep.equal([]);
  });

  describe("seasons, back to back", () => {
    let dir: string;
    let store: Store;
    const start = 1_796_198_400; // an hour boundary

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), "augur-seasons-"));
      store = await openStore({ kind: "sqlite", file: join(dir, "augur.sqlite") });
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("opens `demo` at the hour now falls in, and the next one at its end, not before", async () => {
      const seasons = await DemoSeasons.open(store.db, 6, start + 95);
      expect(seasons.current).to.include({ id: "demo", starts_at: start, ends_at: start + 6 * HOUR });
      expect(await seasons.rollOver(start + 6 * HOUR - 1)).to.equal(undefined);
      expect(seasons.current.id).to.equal("demo");
      const ended = await seasons.rollOver(start + 6 * HOUR + 4);
      expect(ended?.id).to.equal("demo");
      expect(seasons.current).to.include({
        id: "demo-2",
        starts_at: start + 6 * HOUR,
        ends_at: start + 12 * HOUR,
      });
      expect(await findSeason(store.db, "demo-2")).to.include({
        starts_at: start + 6 * HOUR,
        closed_at: null,
      });
      expect(await seasons.rollOver(start + 7 * HOUR)).to.equal(undefined);
    });

    it('"no new spend goes in": the rollover opens no season once the system winds down', async () => {
      const seasons = await DemoSeasons.open(store.db, 6, start);
      await declareWindDown(store, "2026-12-01", start + HOUR);
      const refused = await seasons.rollOver(start + 6 * HOUR).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(SpendRefusedError);
      expect((refused as Error).message).to.match(
        /^refused: opening season demo-2 is new spend, and the system is winding down since 2026-12-01 /,
      );
      expect(seasons.current.id).to.equal("demo");
      expect(seasons.isOpen(start + 6 * HOUR)).to.equal(false); // the house agents sit out
      expect(await findSeason(store.db, "demo-2")).to.equal(undefined);
    });

    it("a clock that jumped over whole seasons opens each of them, ending in the one it is in", async () => {
      const seasons = await DemoSeasons.open(store.db, 1, start);
      expect((await seasons.rollOver(start + 3 * HOUR + 10))?.id).to.equal("demo");
      expect(seasons.current.id).to.equal(demoSeasonId(4));
      for (const n of [2, 3, 4])
        expect(await findSeason(store.db, demoSeasonId(n)), `demo-${n}`).to.not.equal(undefined);
    });
  });
});
