import { task } from "hardhat/config";
import { Contract, getAddress, isAddress } from "ethers";
import { AgentError, BadArgumentError } from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { roleSigner } from "./lib/runtime";

const VESTING_ABI = [
  "function owner() view returns (address)",
  "function burnUnvested(address token)",
  "function burned(address token) view returns (bool)",
  "event UnvestedBurned(address indexed token, uint256 amount, uint64 windDownAt)",
];

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
      const operator = getAddress(await signer.getAddress());
      const vesting = new Contract(vestingAddress, VESTING_ABI, signer);
      const owner = getAddress((await vesting.getFunction("owner")()) as string);
      if (owner !== operator) {
        throw new AgentError(
          "NOT_OPERATOR",
          `${operator} does not own the vesting contract (${owner} does): sign with OPERATOR_PRIVATE_KEY`,
          { operator, owner },
        );
      }
      if ((await vesting.getFunction("burned")(token)) as boolean) {
        throw new AgentError(
          "ALREADY_BURNED",
          `the unvested ${token} of ${vestingAddress} was burned already`,
          {
            token,
          },
        );
      }
      const tx = await vesting.getFunction("burnUnvested").send(token);
      const receipt = (await tx.wait())!;
      const event = receipt.logs
        .map((log) => vesting.interface.parseLog(log))
        .find((parsed) => parsed?.name === "UnvestedBurned");
      const amount = (event!.args.getValue("amount") as bigint).toString();
      const windDownAt = Number(event!.args.getValue("windDownAt") as bigint);
      return report(
        args.json,
        { vesting: vestingAddress, token, amount, windDownAt, tx: receipt.hash, block: receipt.blockNumber },
        () => [
          `burned ${amount} base units of ${token} (unvested at ${new Date(windDownAt * 1000).toISOString()})`,
          `  tx ${receipt.hash} in block ${receipt.blockNumber}; the final receipt counts it as an operator burn`,
        ],
      );
    }),
  );
