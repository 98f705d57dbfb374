import { expect } from "chai";
import hre from "hardhat";
import fc from "fast-check";
import { Fragment, Interface } from "ethers";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { ANCHOR_REGISTRY_ABI, buildCommitment, CALL_LEDGER_ABI, PRICE_ORACLE_ABI } from "@augur/agent";
import { augurOnReplica } from "../shared/augur";

const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => hre.ethers.getAddress(hre.ethers.hexlify(b)));
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => hre.ethers.hexlify(b));

describe("@augur/agent against the compiled contracts", function () {
  it("buildCommitment equals CallLedger.computeCommitment bit for bit (random terms)", async function () {
    const deployment = await loadFixture(augurOnReplica);
    const ledger = await hre.ethers.getContractAt("CallLedger", deployment.callLedger);
    await fc.assert(
      fc.asyncProperty(
        address,
        address,
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.constantFrom(0, 1, 2),
        fc.integer({ min: 0, max: 0xffff }),
        bytes32,
        async (agent, asset, window, direction, confidenceBps, salt) => {
          const terms = { asset, window, direction, confidenceBps, salt };
          const ours = buildCommitment({ chainId: 31337, ledger: deployment.callLedger, agent }, terms);
          const theirs = await ledger.computeCommitment(agent, asset, window, direction, confidenceBps, salt);
          expect(ours).to.equal(theirs);
        },
      ),
      { numRuns: 25 },
    );
  });

  for (const [contract, abi] of [
    ["CallLedger", CALL_LEDGER_ABI],
    ["PriceOracle", PRICE_ORACLE_ABI],
    ["AnchorRegistry", ANCHOR_REGISTRY_ABI],
  ] as const) {
    it(`every ${contract} fragment the toolkit uses exists in the artifact with the same signature`, async function () {
      const artifact = new Interface((await hre.artifacts.readArtifact(contract)).abi);
      for (const text of abi) {
        const fragment = Fragment.from(text);
        const name = "name" in fragment ? String(fragment.name) : "";
        const theirs =
          fragment.type === "function"
            ? artifact.getFunction(name)
            : fragment.type === "event"
              ? artifact.getEvent(name)
              : artifact.getError(name);
        expect(theirs, `${contract}.${name}`).to.not.equal(null);
        expect(theirs!.format("minimal"), text).to.equal(fragment.format("minimal"));
      }
    });
  }
});
