import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { Interface } from "ethers";
import { ABI_DIR, abiDocs } from "../scripts/abi-docs";

// docs/abi/ is what an outside verifier reads: it must describe the contracts of this commit.
describe("docs/abi (npm run abi:docs)", () => {
  let generated: Map<string, string>;
  before(async () => {
    generated = await abiDocs();
  });

  it("equals what the generator writes from the compiled artifacts (run `npm run abi:docs` after a contract change)", () => {
    for (const [file, text] of generated) {
      expect(existsSync(file), `${basename(file)} is missing: run npm run abi:docs`).to.equal(true);
      expect(readFileSync(file, "utf8"), `${basename(file)} is stale: run npm run abi:docs`).to.equal(text);
    }
    expect(readdirSync(ABI_DIR).sort()).to.deep.equal([...generated.keys()].map((f) => basename(f)).sort());
  });

  it("publishes the selectors a verifier calls, as the contracts compute them", () => {
    const readme = generated.get(`${ABI_DIR}/README.md`)!;
    const registry = new Interface(JSON.parse(generated.get(`${ABI_DIR}/AnchorRegistry.json`)!) as string[]);
    for (const fn of [
      "verifyInclusion(bytes32,uint64,uint64,bytes32[])",
      "anchorAt(uint256)",
      "rootOf(uint64)",
    ]) {
      const selector = registry.getFunction(fn)!.selector;
      expect(readme).to.match(new RegExp(`\\| \`${fn.replace(/[()[\]]/g, "\\$&")}\` +\\| \`${selector}\``));
    }
    // The well-known value, so the test does not only compare ethers with itself.
    expect(registry.getFunction("supportsInterface(bytes4)")!.selector).to.equal("0x01ffc9a7");
  });
});
