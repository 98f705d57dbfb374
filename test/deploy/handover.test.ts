import { expect } from "chai";
import hre from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { deployAugur, handOver, HandoverError } from "../../deploy";
import { augurOnReplica, hardhatConfig } from "../shared/augur";
import { rejection } from "../shared/rejection";

describe("ownership handover to the multisig", function () {
  it("two steps: the admin proposes, the multisig accepts, the admin renounces; then the multisig alone holds power", async function () {
    const deployment = await loadFixture(augurOnReplica);
    const signers = await hre.ethers.getSigners();
    const [admin, multisig] = [signers[0]!, signers[7]!];
    const dir = deployment.deploymentsDir;

    const proposed = await handOver(hre, multisig.address, { deploymentsDir: dir });
    expect(proposed.transactions).to.equal(3);
    expect(proposed.oraclePendingOwner).to.equal(multisig.address);
    expect(proposed.next).to.have.length(3);
    // Proposing again changes nothing.
    expect((await handOver(hre, multisig.address, { deploymentsDir: dir })).transactions).to.equal(0);
    // Finishing before the multisig accepted is refused.
    const early = await rejection(handOver(hre, multisig.address, { finish: true, deploymentsDir: dir }));
    expect(early).to.be.instanceOf(HandoverError);
    expect(early.message).to.match(/has not accepted ownership/);

    const oracle = await hre.ethers.getContractAt("PriceOracle", deployment.priceOracle, multisig);
    const ledger = await hre.ethers.getContractAt("CallLedger", deployment.callLedger, multisig);
    await (await oracle.acceptOwnership()).wait();
    await (await ledger.acceptOwnership()).wait();
    const done = await handOver(hre, multisig.address, { finish: true, deploymentsDir: dir });
    expect(done.next).to.deep.equal([]);
    expect(done.registryAdmins).to.deep.equal({ admin: false, multisig: true });

    // The deploy still reads everything back as configured, the multisig now being the owner.
    const again = await deployAugur(hre, {
      replica: deployment.replica,
      deploymentsDir: dir,
      config: { ...hardhatConfig(), multisig: multisig.address },
    });
    expect(again.transactions).to.equal(0);
    expect(again.checks.find((c) => c.what === "ledger.owner")!.actual).to.equal(multisig.address);

    // The former admin can no longer configure anything; the multisig can.
    const asAdmin = await hre.ethers.getContractAt("CallLedger", deployment.callLedger, admin);
    await expect(asAdmin.setWindow(60, true)).to.be.revertedWithCustomError(
      asAdmin,
      "OwnableUnauthorizedAccount",
    );
    await (await ledger.setWindow(60, true)).wait();
    expect(await ledger.windowAllowed(60)).to.equal(true);
  });
});
