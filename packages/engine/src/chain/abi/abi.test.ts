import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Interface } from "ethers";
import { REPO_ROOT } from "../node";
import { ANCHOR_REGISTRY_ABI } from "./anchor-registry";
import { CALL_LEDGER_ABI } from "./call-ledger";
import { MULTICALL3_ABI } from "./multicall3";
import { PRICE_ORACLE_ABI } from "./price-oracle";

/** The compiled contract's ABI as an ethers Interface (`npx hardhat compile` first). */
function compiled(path: string): Interface {
  const file = join(REPO_ROOT, "artifacts/contracts", path);
  return new Interface((JSON.parse(readFileSync(file, "utf8")) as { abi: unknown[] }).abi as never);
}

// The engine's ABIs are written out by hand (no typechain-types at run time): every fragment must
// still exist, with the same signature (indexed topics and return types included), in the contract it reads, so a removed event or function
// (PriceOracle's PoolRemoved) cannot linger as a dead path.
const SLICES: [string, readonly string[], string][] = [
  ["PriceOracle", PRICE_ORACLE_ABI, "PriceOracle.sol/PriceOracle.json"],
  ["AnchorRegistry", ANCHOR_REGISTRY_ABI, "AnchorRegistry.sol/AnchorRegistry.json"],
  ["CallLedger", CALL_LEDGER_ABI, "CallLedger.sol/CallLedger.json"],
  ["Multicall3 (the replica's)", MULTICALL3_ABI, "test/ReplicaMulticall3.sol/ReplicaMulticall3.json"],
];

describe("engine ABIs match the compiled contracts", () => {
  for (const [name, slice, artifact] of SLICES) {
    it(`${name}: every hand-written fragment is in the artifact`, () => {
      const full = compiled(artifact);
      const have = new Set(full.fragments.map((f) => f.format("minimal")));
      const missing = new Interface(slice).fragments
        .map((f) => f.format("minimal"))
        .filter((s) => !have.has(s));
      expect(missing, `${name} fragments not in the contract`).to.deep.equal([]);
    });
  }

  it("PriceOracle has no PoolRemoved event any more (a pool, once set, stays)", () => {
    expect(compiled("PriceOracle.sol/PriceOracle.json").getEvent("PoolRemoved")).to.equal(null);
  });
});
