import { expect } from "chai";
import { PassThrough } from "node:stream";
import { main } from "./main";

function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return { io: { stdout, stderr, stdin: new PassThrough() }, out: () => out, err: () => err };
}

describe("augur CLI dispatcher", () => {
  it("lists the commands on --help and exits 0", async () => {
    const c = capture();
    expect(await main(["--help"], c.io)).to.equal(0);
    expect(c.out()).to.match(/^Usage: augur <command>/);
  });

  it("exits 2 with usage when no command is given", async () => {
    const c = capture();
    expect(await main([], c.io)).to.equal(2);
    expect(c.out()).to.contain("Commands:");
  });

  it("rejects an unknown command with one line on stderr and exit 2", async () => {
    const c = capture();
    expect(await main(["frobnicate"], c.io)).to.equal(2);
    expect(c.err()).to.equal("augur: unknown command 'frobnicate' (see augur --help)\n");
  });
});
