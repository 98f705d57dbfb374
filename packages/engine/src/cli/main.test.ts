import { expect } from "chai";
import { loadCommand, loadCommands, main } from "./main";
import { fakeIo } from "../../test-support/cli/testing";

describe("augur CLI dispatcher", () => {
  it("lists the commands on --help and exits 0", async () => {
    const c = fakeIo();
    expect(await main(["--help"], c)).to.equal(0);
    expect(c.out()).to.match(/^Usage: augur <command>/);
  });

  it("exits 2 with usage when no command is given", async () => {
    const c = fakeIo();
    expect(await main([], c)).to.equal(2);
    expect(c.out()).to.contain("Commands:");
  });

  it("rejects an unknown command with one line on stderr and exit 2", async () => {
    const c = fakeIo();
    expect(await main(["frobnicate"], c)).to.equal(2);
    expect(c.err()).to.equal("augur: unknown command 'frobnicate' (see augur --help)\n");
  });

  it("runs a command from its own file alone: every command's file is named after it", () => {
    const all = loadCommands();
    expect(all.size).to.be.greaterThan(10);
    for (const [name, command] of all) expect(loadCommand(name), name).to.equal(command);
    for (const name of ["constructor", "seal.test", "../cli/main", "Seal", ""])
      expect(loadCommand(name), name).to.equal(undefined);
  });
});
