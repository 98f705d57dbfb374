import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { main } from "../main";
import { fakeIo } from "../../../test-support/cli/testing";

/** Commands that only read never create a store where there is none. */
describe("read-only commands against a missing data dir", () => {
  let parent: string;
  const savedUrl = process.env.DATABASE_URL;
  const savedDir = process.env.AUGUR_DATA_DIR;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "augur-read-only-"));
    delete process.env.DATABASE_URL;
  });
  afterEach(() => {
    rmSync(parent, { recursive: true, force: true });
    if (savedUrl !== undefined) process.env.DATABASE_URL = savedUrl;
    if (savedDir === undefined) delete process.env.AUGUR_DATA_DIR;
    else process.env.AUGUR_DATA_DIR = savedDir;
  });

  for (const argv of [
    ["mode", "show"],
    ["mode", "show", "--json"],
    ["season", "show", "--id", "s1"],
    ["verify", "--api", "http://127.0.0.1:9", "--agent", "ada", "--season", "s1"],
  ]) {
    it(`augur ${argv.join(" ")} fails in one line and creates nothing`, async () => {
      const dir = join(parent, "missing");
      const io = fakeIo();
      process.env.AUGUR_DATA_DIR = dir; // the environment, so commands without --data-dir see it too
      const code = await main(argv, io);
      expect(code).to.not.equal(0);
      expect(io.err().trim().split("\n"), io.err()).to.have.length(1);
      expect(io.err()).to.not.match(/usage|unknown option/i);
      expect(existsSync(dir), `${dir} was created`).to.equal(false);
      expect(readdirSync(parent)).to.deep.equal([]);
    });
  }
});
