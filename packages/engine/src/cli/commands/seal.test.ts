import { expect } from "chai";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seal } from "@augur/scorer";
import { UsageError } from "../command";
import { main } from "../main";
import { fakeIo } from "../../../test-support/cli/testing";
import { command } from "./seal";

describe("augur seal", () => {
  const dir = mkdtempSync(join(tmpdir(), "augur-seal-"));

  it("prints the seal of the record on stdin: sha256 of its canonical JSON", async () => {
    const io = fakeIo('{ "b": [1, 2.50], "a": "x" }');
    expect(await command.run([], io)).to.equal(0);
    const expected = createHash("sha256").update('{"a":"x","b":[1,2.5]}').digest("hex");
    expect(io.out()).to.equal(`0x${expected}\n`);
  });

  it("reads a file when one is named", async () => {
    const file = join(dir, "record.json");
    writeFileSync(file, JSON.stringify({ kind: "snapshot", nav: 1000 }));
    const io = fakeIo("ignored");
    expect(await command.run([file], io)).to.equal(0);
    expect(io.out()).to.equal(`${seal({ nav: 1000, kind: "snapshot" })}\n`);
  });

  it("malformed JSON: exit 1 and one line on stderr", async () => {
    const io = fakeIo('{"a":');
    expect(await main(["seal"], io)).to.equal(1);
    expect(io.out()).to.equal("");
    expect(io.err()).to.match(/^augur seal: stdin: malformed JSON \(.+\)\n$/);
  });

  it("a missing file: exit 1 and one line on stderr", async () => {
    const io = fakeIo();
    expect(await main(["seal", join(dir, "nope.json")], io)).to.equal(1);
    expect(io.err()).to.match(/^augur seal: ENOENT.*nope\.json.*\n$/);
  });

  it("a non-JSON token (NaN) is refused with exactly one line on stderr", async () => {
    const io = fakeIo("[NaN]");
    expect(await main(["seal"], io)).to.equal(1);
    expect(io.err().split("\n")).to.have.length(2);
  });

  for (const [label, text, problem] of [
    ["a repeated key", '{"nav":"1","nav":"2"}', '$ repeats the key "nav"'],
    ["an integer beyond ±(2^53 − 1)", '{"nav":9007199254740993}', "$.nav is an integer beyond"],
  ] as const) {
    it(`${label} is refused (I-JSON), exit 1 and one line naming it`, async () => {
      const io = fakeIo(text);
      expect(await main(["seal"], io)).to.equal(1);
      expect(io.out()).to.equal("");
      expect(io.err()).to.contain(problem);
      expect(io.err().split("\n")).to.have.length(2);
    });
  }

  it("two files or an unknown option: usage error, exit 2", async () => {
    await expectUsage(["a.json", "b.json"], /at most one file/);
    await expectUsage(["--pretty"], /Unknown option '--pretty'/);
    const io = fakeIo();
    expect(await main(["seal", "a.json", "b.json"], io)).to.equal(2);
    expect(io.err()).to.match(/^augur seal: expected at most one file, got 2\n$/);
  });

  async function expectUsage(argv: string[], message: RegExp) {
    let error: unknown;
    try {
      await command.run(argv, fakeIo("{}"));
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(UsageError);
    expect((error as Error).message).to.match(message);
  }
});
