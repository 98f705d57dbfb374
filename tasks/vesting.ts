import { task } from "hardhat/config";
import { getAddress, isAddress } from "ethers";
import { AgentError, BadArgumentError } from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { roleSigner } from "./lib/runtime";

function address(name: string, text: string): string {
  if (!isAddress(text)) throw new BadArgumentError(name, "must be a 0x address of 20 bytes", text);
  return getAddress(text);
}

task(
  "vesting:burn-unvested",
  "Wind-down: burn the operator allocation's unvested part (OperatorVesting.burnUnvested), once per token",
)
  .addParam("vesting", "the OperatorVesting contract")
  .addParam("token", "the token it vests (the project token)")
  .addOptionalParam("account", "local networks only: index of the node account to act as (default 0)")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { vesting: string; token: string; account?: string; json: boolean }, hre) =>
    guarded(async () => {
      const vestingAddress = address("vesting", args.vesting);
      const token = address("token", args.token);
      const signer = await roleSigner(hre, "OPERATOR", args.account);
      // The engine's wind-down runs the same burn (one place: modes/vesting.ts).
      const { burnUnvestedOnce, describeBurn, VestingBurnError } = await import("@augur/engine");
      const allocation = { vesting: vestingAddress, token };
      const burn = await burnUnvestedOnce(signer, allocation);
      if (burn.status === "already") {
        throw new VestingBurnError(
          "ALREADY_BURNED",
          `the unvested ${token} of ${vestingAddress} was burned already`,
          { token },
        );
      }
      if (burn.status === "pending") throw new AgentError("PENDING", describeBurn(burn, allocation));
      const summary = {
        vesting: vestingAddress,
        token,
        amount: burn.amount.toString(),
        windDownAt: burn.windDownAt,
        tx: burn.tx,
        block: burn.block,
      };
      return report(args.json, summary, () => [
        describeBurn(burn, allocation),
        "  the final receipt counts it as an operator burn",
      ]);
    }),
  );
