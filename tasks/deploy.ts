import { task } from "hardhat/config";
import { deployAugur } from "../deploy";
import { DeployConfigError, readDeployConfig } from "../deploy/config";
import { handOver } from "../deploy/handover";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";

task(
  "augur:deploy",
  "Deploy and configure PriceOracle, CallLedger and AnchorRegistry (re-running is a no-op)",
)
  .addOptionalParam(
    "redeploy",
    "live networks: comma-separated contracts that may be replaced when their record no longer matches",
  )
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { redeploy?: string; json: boolean }, hre) =>
    guarded(async () => {
      const deployment = await deployAugur(hre, {
        redeploy: args.redeploy?.split(",").map((s) => s.trim()),
        log: args.json ? undefined : (line) => console.log(line),
      });
      const summary = {
        network: deployment.network,
        chainId: deployment.chainId,
        priceOracle: deployment.priceOracle,
        callLedger: deployment.callLedger,
        anchorRegistry: deployment.anchorRegistry,
        usdg: deployment.usdg,
        assets: deployment.assets,
        deployed: deployment.deployed,
        transactions: deployment.transactions,
        checks: deployment.checks,
      };
      return report(args.json, summary, () => [
        deployment.transactions === 0
          ? "nothing to do: everything already deployed as configured"
          : `${deployment.transactions} transaction(s) sent`,
        `  PriceOracle    ${deployment.priceOracle}`,
        `  CallLedger     ${deployment.callLedger}`,
        `  AnchorRegistry ${deployment.anchorRegistry}`,
      ]);
    }),
  );

task(
  "augur:handover",
  "Admin: hand the contracts to the multisig of config/deploy.json (two-step; see docs/deploy.md)",
)
  .addOptionalParam("multisig", "override the config's multisig address")
  .addFlag("finish", "after the multisig accepted: renounce the admin's AnchorRegistry role")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { multisig?: string; finish: boolean; json: boolean }, hre) =>
    guarded(async () => {
      const multisig = args.multisig ?? readDeployConfig(hre.network.name).multisig;
      if (!multisig)
        throw new DeployConfigError(
          `networks.${hre.network.name}.multisig`,
          "is null: set the multisig address",
        );
      const state = await handOver(hre, multisig, { finish: args.finish });
      return report(args.json, state, () => [
        `${state.transactions} transaction(s) sent; PriceOracle owner ${state.oracleOwner}, CallLedger owner ${state.ledgerOwner}`,
        ...(state.next.length === 0
          ? ["handover complete: the multisig holds every admin power"]
          : state.next.map((n) => `  next — ${n}`)),
      ]);
    }),
  );
