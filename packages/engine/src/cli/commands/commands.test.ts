import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { main } from "../main";
import { fakeIo } from "../../../test-support/cli/testing";

async function run(argv: string[]) {
  const c = fakeIo();
  const code = await main(argv, c);
  return { code, out: c.out(), err: c.err() };
}

describe("augur migrate, season, serve", () => {
  let dir: string;
  const savedUrl = process.env.DATABASE_URL;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-cli-"));
    delete process.env.DATABASE_URL;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (savedUrl !== undefined) process.env.DATABASE_URL = savedUrl;
  });

  for (const name of ["migrate", "serve", "season", "cycle", "settle"]) {
    it(`${name} --help prints its usage and exits 0`, async () => {
      const r = await run([name, "--help"]);
      expect(r.code).to.equal(0);
      expect(r.out).to.match(new RegExp(`^Usage: augur ${name}`));
      expect(r.out).to.contain("--data-dir");
    });
  }

  it("migrate creates the SQLite file on first run and applies nothing the second time", async () => {
    const dataDir = join(dir, "nested", "data");
    const first = await run(["migrate", "--data-dir", dataDir]);
    expect(first.code, first.err).to.equal(0);
    expect(first.out).to.match(/^applied 001_initial(, [0-9]{3}_[a-z_]+)* to .*augur\.sqlite\n$/);
    expect(existsSync(join(dataDir, "augur.sqlite"))).to.equal(true);
    const second = await run(["migrate", "--data-dir", dataDir]);
    expect(second.out).to.match(/^schema is up to date/);
  });

  it("season add/close/show round-trip, with usage errors (exit 2) and refusals (exit 1)", async () => {
    const add = await run([
      "season",
      "add",
      "--data-dir",
      dir,
      "--id",
      "s1",
      "--starts",
      "2026-12-01T00:00:00Z",
      "--ends",
      "1799999999",
    ]);
    expect(add.code, add.err).to.equal(0);
    expect(add.out).to.equal("season s1 added: 2026-12-01T00:00:00.000Z to 2027-01-15T07:59:59.000Z\n");
    const again = await run([
      "season",
      "add",
      "--data-dir",
      dir,
      "--id",
      "s1",
      "--starts",
      "1",
      "--ends",
      "2",
    ]);
    expect(again).to.include({ code: 1, err: "augur season: season s1 already exists\n" });
    expect((await run(["season", "close", "--data-dir", dir, "--id", "s1"])).code).to.equal(0);
    const show = await run(["season", "show", "--data-dir", dir, "--id", "s1"]);
    expect(JSON.parse(show.out)).to.include({ id: "s1", ends_at: 1799999999 });
    expect(JSON.parse(show.out).closed_at).to.be.a("number");
    expect(
      (await run(["season", "add", "--data-dir", dir, "--id", "Bad Id", "--starts", "1", "--ends", "2"]))
        .code,
    ).to.equal(2);
    expect(
      (await run(["season", "add", "--data-dir", dir, "--id", "s2", "--starts", "5", "--ends", "2"])).code,
    ).to.equal(2);
    expect((await run(["season", "frob", "--data-dir", dir, "--id", "s2"])).code).to.equal(2);
  });

  it("settle says who settles what, needs --ledger, and refuses a bad --settle-max with one line", async () => {
    const help = await run(["settle", "--help"]);
    for (const text of ["--settle-max", "--ledger", "closesAt", "reveal timeout", "keeper's account"]) {
      expect(help.out).to.contain(text);
    }
    expect((await run(["cycle", "--help"])).out).to.contain("--settle-max");
    const saved = process.env.AUGUR_LEDGER;
    delete process.env.AUGUR_LEDGER;
    try {
      expect(await run(["settle", "--once", "--data-dir", dir])).to.include({
        code: 1,
        err: "augur settle: augur settle needs --ledger\n",
      });
    } finally {
      if (saved !== undefined) process.env.AUGUR_LEDGER = saved;
    }
    const ledger = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    const chain = ["--rpc", "http://127.0.0.1:1", "--registry", ledger, "--ledger", ledger];
    const bad = await run(["settle", "--once", "--data-dir", dir, ...chain, "--settle-max", "0"]);
    expect(bad).to.include({
      code: 2,
      err: "augur settle: --settle-max must be between 1 and 10000, not 0\n",
    });
  });

  it("cycle --once reports the log head and that no keeper is configured", async () => {
    const r = await run(["cycle", "--once", "--data-dir", dir]);
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.contain(`augur cycle: log head: size 0, root 0x${"e3b0c442"}`);
    expect(r.out).to.contain("augur cycle: keeper: not configured");
    expect(r.out).to.match(
      /augur cycle: done as of \S+Z: head 0, 0 score rows in 0 seasons, 0 risk rows, 0 closes\n$/,
    );
  });

  it("cycle --help lists the stewardship monitor's and the operator allocation's flags; a bad one stops it with one line", async () => {
    const help = await run(["cycle", "--help"]);
    for (const flag of [
      "--steward-config",
      "--steward-token",
      "--steward-pools",
      "--steward-usd",
      "--vesting",
    ]) {
      expect(help.out).to.contain(flag);
    }
    const token = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    const usd = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
    const bad = await run(["cycle", "--once", "--data-dir", dir, "--steward-token", "0x12"]);
    expect(bad).to.include({
      code: 1,
      err: "augur cycle: --steward-token must be a 20-byte 0x address, not '0x12'\n",
    });
    const noRpc = await run([
      "cycle",
      "--once",
      "--data-dir",
      dir,
      "--steward-token",
      token,
      "--steward-usd",
      usd,
      "--steward-pools",
      usd,
    ]);
    expect(noRpc).to.include({
      code: 1,
      err: "augur cycle: the stewardship monitor needs --rpc (an http(s):// URL)\n",
    });
    const vesting = await run(["cycle", "--once", "--data-dir", dir, "--vesting", "0x12"]);
    expect(vesting).to.include({
      code: 1,
      err: "augur cycle: --vesting must be a 20-byte 0x address, not '0x12'\n",
    });
    const noKey = await run([
      "cycle",
      "--once",
      "--data-dir",
      dir,
      "--vesting",
      usd,
      "--vesting-token",
      token,
    ]);
    expect(noKey).to.include({
      code: 1,
      err: "augur cycle: --vesting needs OPERATOR_PRIVATE_KEY (0x + 64 hex digits)\n",
    });
  });

  it("serve refuses a bad port or an unknown flag with exit 2 before opening anything", async () => {
    const port = await run(["serve", "--port", "70000", "--data-dir", dir]);
    expect(port).to.include({ code: 2, err: "augur serve: --port must be between 0 and 65535, not 70000\n" });
    expect((await run(["serve", "--frobnicate"])).code).to.equal(2);
    expect(existsSync(join(dir, "augur.sqlite"))).to.equal(false);
  });

  it("serve and migrate refuse bad server limits, a public origin with a path, a creator named twice and a serving role without PostgreSQL, with exit 2", async () => {
    const limit = await run(["serve", "--headers-timeout-ms", "1e4", "--data-dir", dir]);
    expect(limit).to.include({
      code: 2,
      err: "augur serve: --headers-timeout-ms must be an integer, not '1e4'\n",
    });
    const origin = await run(["serve", "--public-origin", "https://augur.example/api", "--data-dir", dir]);
    expect(origin).to.include({
      code: 2,
      err: "augur serve: --public-origin must be an http(s) origin such as https://augur.example, not 'https://augur.example/api'\n",
    });
    const twice = `A=0x${"ab".repeat(20)},B=0x${"AB".repeat(20)}`;
    expect(await run(["serve", "--creators", twice, "--data-dir", dir])).to.include({
      code: 2,
      err: `augur serve: --creators names 0x${"ab".repeat(20)} twice (A and B)\n`,
    });
    const role = await run(["migrate", "--serving-role", "augur_serving", "--data-dir", dir]);
    expect(role).to.include({
      code: 2,
      err: "augur migrate: --serving-role needs a PostgreSQL DATABASE_URL\n",
    });
    expect(existsSync(join(dir, "augur.sqlite"))).to.equal(false);
  });

  it("serve prints its URL, answers /healthz, and stops cleanly on SIGTERM", async function () {
    this.timeout(60_000);
    const bin = join(__dirname, "..", "..", "..", "bin", "augur.cjs");
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--data-dir", dir], {
      env: { ...process.env, LOG_LEVEL: "warn", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    const health = (await (await fetch(`${url}/healthz`)).json()) as { status: string; store: string };
    expect(health).to.deep.include({ status: "ok", store: "sqlite" });
    const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exit).to.equal(0);
    expect(out).to.contain("augur serve: stopped");
  });
});
