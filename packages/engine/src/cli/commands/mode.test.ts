import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { addDays, dayOf } from "../../modes/days";
import { MODE_FORMAT } from "../../modes/records";
import { openStore } from "../../store/open";
import { appendModeRecord } from "../../store/queries/modes";
import { main } from "../main";
import { fakeIo } from "../../../test-support/cli/testing";

async function run(argv: string[]) {
  const c = fakeIo();
  const code = await main(argv, c);
  return { code, out: c.out(), err: c.err() };
}

describe("augur mode, methodology, receipt", () => {
  let dir: string;
  const savedUrl = process.env.DATABASE_URL;
  const today = () => dayOf(Math.floor(Date.now() / 1000));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-modes-"));
    delete process.env.DATABASE_URL;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (savedUrl !== undefined) process.env.DATABASE_URL = savedUrl;
  });

  for (const name of ["mode", "methodology", "receipt"]) {
    it(`${name} --help prints its usage and exits 0`, async () => {
      const r = await run([name, "--help"]);
      expect(r.code).to.equal(0);
      expect(r.out).to.match(new RegExp(`^Usage: augur ${name}`));
    });
  }

  it("mode notice writes a sealed notice effective in 30 days; mode show lists it as pending", async () => {
    const r = await run([
      "mode",
      "notice",
      "--data-dir",
      dir,
      "--to",
      "wind-down",
      "--reason",
      "the operator stops",
    ]);
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(
      new RegExp(
        `^notice 0x[0-9a-f]{64} written \\(leaf 0\\): wind-down from ${addDays(today(), 30)}, 30 days after ${today()}\\n$`,
      ),
    );
    const show = await run(["mode", "show", "--data-dir", dir]);
    expect(show.out).to.match(
      /^mode: active\n {2}notice → wind-down from .* \(pending\): the operator stops {2}0x/,
    );
    const json = JSON.parse((await run(["mode", "show", "--json", "--data-dir", dir])).out);
    expect(json).to.include({ mode: "active" });
    expect(json.notices[0]).to.include({ notice: "mode", to: "wind-down", noticed: today() });
  });

  it("mode notice refuses a bad target (exit 1) and a missing reason or action (exit 2), with one line", async () => {
    const bad = await run(["mode", "notice", "--data-dir", dir, "--to", "archived", "--reason", "x"]);
    expect(bad).to.include({
      code: 1,
      err: "augur mode: to: must be one of active, maintenance, wind-down, not 'archived'\n",
    });
    expect(await run(["mode", "notice", "--data-dir", dir, "--to", "maintenance"])).to.include({
      code: 2,
      err: "augur mode: --reason is required\n",
    });
    expect((await run(["mode", "--data-dir", dir])).code).to.equal(2);
  });

  it("methodology announce needs 14 days' notice", async () => {
    const early = await run([
      "methodology",
      "announce",
      "--data-dir",
      dir,
      "--formula",
      "augur-score/v2",
      "--effective",
      addDays(today(), 13),
    ]);
    expect(early.code).to.equal(1);
    expect(early.err).to.match(/^augur methodology: a methodology change needs 14 days' notice: .*\n$/);
    const ok = await run([
      "methodology",
      "announce",
      "--data-dir",
      dir,
      "--formula",
      "augur-score/v2",
      "--effective",
      addDays(today(), 14),
    ]);
    expect(ok.code, ok.err).to.equal(0);
    expect(ok.out).to.contain(`augur-score/v2 applies from ${addDays(today(), 14)}, announced ${today()}`);
    expect(
      (await run(["methodology", "announce", "--data-dir", dir, "--formula", "augur-score/v2"])).code,
    ).to.equal(2);
  });

  it("season add is new spend: refused with one line in maintenance mode", async () => {
    const store = await openStore({ kind: "sqlite", file: join(dir, "augur.sqlite") });
    try {
      const body = {
        format: MODE_FORMAT,
        mode: "maintenance",
        since: "2027-02-23",
        declared: "2027-02-23",
        cause: {
          kind: "operator",
          notice: `0x${"11".repeat(32)}`,
          noticed: "2027-01-24",
          reason: "quiet market",
        },
        previous: null,
      };
      await store.db
        .transaction()
        .execute((trx) => appendModeRecord(trx, { kind: "mode", day: body.since, body }, 1));
    } finally {
      await store.close();
    }
    const r = await run(["season", "add", "--data-dir", dir, "--id", "s9", "--starts", "1", "--ends", "2"]);
    expect(r.code).to.equal(1);
    expect(r.err).to.match(
      /^augur season: refused: opening season s9 is new spend, and the system is in maintenance mode since 2027-02-23 \(the operator's decision, noticed on 2027-01-24 .*: quiet market\)\n$/,
    );
    expect((await run(["mode", "show", "--data-dir", dir])).out).to.match(
      /^mode: maintenance mode since 2027-02-23/,
    );
  });

  it("mode final checks its flags first and is refused before the archive, with one line", async () => {
    const registry = `0x${"1".repeat(40)}`;
    const rpc = "http://127.0.0.1:9";
    const cases: [string[], number, RegExp][] = [
      [["--rpc", rpc, "--registry", registry], 2, /--words is required/],
      [["--words", "bye", "--rpc", "ftp://x", "--registry", registry], 2, /--rpc must be an http/],
      [["--words", "bye", "--rpc", rpc, "--registry", "0x12"], 2, /--registry must be a 0x address/],
      [["--words", "two\nlines", "--rpc", rpc, "--registry", registry], 1, /words: must be one line/],
    ];
    for (const [args, code, message] of cases) {
      const r = await run(["mode", "final", "--data-dir", dir, ...args]);
      expect([r.code, r.err], args.join(" ")).to.satisfy(
        ([c, e]: [number, string]) => c === code && message.test(e) && e.trimEnd().split("\n").length === 1,
      );
    }
    // A store that is not archived: refused, nothing posted (the endpoint is never reached).
    expect(
      (await run(["mode", "notice", "--data-dir", dir, "--to", "maintenance", "--reason", "quiet"])).code,
    ).to.equal(0);
    const savedKey = process.env.KEEPER_PRIVATE_KEY;
    process.env.KEEPER_PRIVATE_KEY = `0x${"42".repeat(32)}`;
    try {
      const r = await run([
        "mode",
        "final",
        "--data-dir",
        dir,
        "--words",
        "bye",
        "--rpc",
        rpc,
        "--registry",
        registry,
      ]);
      expect(r.code, r.err).to.equal(1);
      expect(r.err).to.match(/the final notice follows the archive; the system is active/);
    } finally {
      if (savedKey === undefined) delete process.env.KEEPER_PRIVATE_KEY;
      else process.env.KEEPER_PRIVATE_KEY = savedKey;
    }
  });

  it("receipt validates every argument before it reads the chain", async () => {
    const cases: [string[], number, RegExp][] = [
      [["--to", "4"], 2, /--from <block> is required/],
      [["--from", "x", "--to", "4"], 2, /--from must be a block number, not 'x'/],
      [["--from", "5", "--to", "4", "--keeper", `0x${"1".repeat(40)}`], 1, /--from 5 is after --to 4/],
      [
        ["--from", "1", "--to", "4", "--token", "0x12"],
        1,
        /--token must be a 0x address of 20 bytes, not '0x12'/,
      ],
      [
        ["--from", "1", "--to", "4", "--keeper", `0x${"1".repeat(40)}`, "--eth", `0x${"2".repeat(40)}`],
        1,
        /--eth needs --oracle/,
      ],
      [["--from", "1", "--to", "4", "--settler", "0x12"], 1, /--settler must be a 0x address of 20 bytes/],
      [["--from", "1", "--to", "4"], 1, /nothing to reconstruct/],
      [
        ["--from", "1", "--to", "4", "--keeper", `0x${"1".repeat(40)}`, "--rpc", "ftp://x"],
        2,
        /--rpc must be an http/,
      ],
      [
        ["--from", "1", "--to", "4", "--keeper", `0x${"1".repeat(40)}`, "--rpc", "http://127.0.0.1:9"],
        1,
        /cannot reach the JSON-RPC endpoint/,
      ],
    ];
    for (const [args, code, message] of cases) {
      const r = await run(["receipt", ...args]);
      expect(r.code, args.join(" ")).to.equal(code);
      expect(r.err, args.join(" ")).to.match(message);
      expect(r.err.trimEnd().split("\n"), args.join(" ")).to.have.length(1);
    }
  });
});
