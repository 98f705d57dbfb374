import { expect } from "chai";
import { UsageError } from "./command";
import { actionOf, parseStoreCommand } from "./options";

describe("the CLI's shared parseArgs glue (options.ts)", () => {
  it("parseStoreCommand: the command's flags plus --data-dir, its positionals, a bad flag a usage error", () => {
    const parsed = parseStoreCommand(["show", "--id", "s1", "--data-dir", "d", "--json"], {
      id: { type: "string" },
      json: { type: "boolean" },
    });
    expect(parsed.values).to.deep.equal({ id: "s1", "data-dir": "d", json: true });
    expect(parsed.positionals).to.deep.equal(["show"]);
    expect(() => parseStoreCommand(["--nope"], { id: { type: "string" } })).to.throw(UsageError, /--nope/);
    expect(() => parseStoreCommand(["--json=1"], { json: { type: "boolean" } })).to.throw(UsageError);
  });

  it("actionOf: exactly one positional, one of the actions; the usage line names them", () => {
    expect(actionOf(["close"], ["add", "close", "show"])).to.equal("close");
    for (const positionals of [[], ["drop"], ["add", "extra"]]) {
      expect(() => actionOf(positionals, ["add", "close", "show"]), positionals.join(" "))
        .to.throw(UsageError)
        .with.property("message", "expected one of: add, close, show");
    }
    expect(() => actionOf(["announce", "x"], ["announce"]))
      .to.throw(UsageError)
      .with.property("message", "expected: announce");
  });
});
