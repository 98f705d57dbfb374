import { task } from "hardhat/config";
import {
  formatFixed18,
  readConsensus,
  requireAllowedWindow,
  requirePricedAsset,
  symbolOf,
} from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { agentContext } from "./lib/runtime";

task("consensus:show", "Show the consensus round a call revealed now would land in")
  .addParam("asset", "stock symbol or token address")
  .addParam("window", "window in seconds (allowed by the ledger)")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { asset: string; window: string; json: boolean }, hre) =>
    guarded(async () => {
      const context = await agentContext(hre);
      const asset = await requirePricedAsset(context, args.asset);
      const window = await requireAllowedWindow(context, args.window);
      const view = await readConsensus(context, asset, window);
      const total = view.upWeight + view.downWeight;
      const share = (w: bigint) => (total === 0n ? "0.00" : (Number((w * 10_000n) / total) / 100).toFixed(2));
      return report(args.json, view, () => [
        `${symbolOf(context, asset)} ${window}s round ${view.bucket}: ${view.direction === "none" ? "no consensus" : `consensus ${view.direction}`}`,
        `  up ${formatFixed18(view.upWeight, 2)} (${share(view.upWeight)} %), down ${formatFixed18(view.downWeight, 2)} (${share(view.downWeight)} %), ${view.voters} voter(s); needs ${view.quorum} voters and ${view.thresholdBps / 100} %`,
      ]);
    }),
  );
