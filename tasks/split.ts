import { task } from "hardhat/config";
import { Contract, formatUnits, getAddress, isAddress, parseUnits } from "ethers";
import { BadArgumentError, send, UnknownAssetError } from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { assetsOf, loadDeployment, roleSigner } from "./lib/runtime";
import { LOCAL_NETWORKS } from "../deploy/config";

/** ERC-8056's multiplier is 18-decimal fixed point: 1e18 is 1.0. */
const ONE = 10n ** 18n;

const ERC8056_ABI = [
  "function uiMultiplier() view returns (uint256)",
  "function setUIMultiplier(uint256 newMultiplier, uint256 effectiveAtTimestamp)",
  "function owner() view returns (address)",
] as const;

task(
  "replica:split",
  "Replica stock issuer: schedule a split (ERC-8056 uiMultiplier × ratio); balances and pool prices stay as they are",
)
  .addParam("stock", "stock symbol of the deployment or token address")
  .addParam("ratio", "shares after per share before: 2 for a 2-for-1 split, 0.5 for a 1-for-2 reverse split")
  .addOptionalParam("at", "unix second it takes effect, after the latest block (default: 60 s after it)")
  .addOptionalParam("account", "index of the node account that issued the stock (default 0)")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(
    async (args: { stock: string; ratio: string; at?: string; account?: string; json: boolean }, hre) =>
      guarded(async () => {
        // Real stock tokens split at their issuer's word; only the replica's mock takes it from us.
        if (!LOCAL_NETWORKS.has(hre.network.name)) {
          throw new BadArgumentError(
            "network",
            "must be the local replica (hardhat or localhost)",
            hre.network.name,
          );
        }
        const ratio = args.ratio.trim();
        if (!/^\d+(\.\d{1,18})?$/.test(ratio) || /^0*(\.0*)?$/.test(ratio)) {
          throw new BadArgumentError(
            "ratio",
            "must be a positive number with at most 18 decimals, e.g. 2",
            args.ratio,
          );
        }
        const record = await loadDeployment(hre);
        const assets = assetsOf(record);
        const bySymbol = Object.entries(assets).find(([s]) => s.toUpperCase() === args.stock.toUpperCase());
        if (!bySymbol && !isAddress(args.stock)) throw new UnknownAssetError(args.stock, Object.keys(assets));
        const stock = getAddress(bySymbol ? bySymbol[1] : args.stock);
        const latest = (await hre.ethers.provider.getBlock("latest"))!.timestamp;
        // A schedule, as issuers announce splits ahead: the default leaves a minute for the transaction.
        const at = args.at === undefined ? latest + 60 : Number(args.at);
        if (!Number.isSafeInteger(at) || at <= latest) {
          throw new BadArgumentError(
            "at",
            `must be a unix second after the latest block's (${latest})`,
            String(args.at),
          );
        }
        const signer = await roleSigner(hre, "DEPLOYER", args.account);
        const token = new Contract(stock, ERC8056_ABI, signer);
        let current: bigint;
        try {
          current = (await token.getFunction("uiMultiplier")()) as bigint;
        } catch {
          throw new BadArgumentError("stock", "is not an ERC-8056 token (no uiMultiplier)", stock);
        }
        // Splits compound: a 2-for-1 after a 3-for-1 shows 6 shares per raw token.
        const multiplier = (current * parseUnits(ratio, 18)) / ONE;
        if (multiplier === 0n) throw new BadArgumentError("ratio", "leaves a zero multiplier", args.ratio);
        const sent = await send(token.getFunction("setUIMultiplier"), [multiplier, at]);
        const value = { stock, previousMultiplier: current, multiplier, effectiveAt: at, ...sent };
        return report(args.json, value, () => [
          `${args.stock}: uiMultiplier ${formatUnits(current, 18)} → ${formatUnits(multiplier, 18)} from ${new Date(at * 1000).toISOString()} (tx ${sent.txHash})`,
        ]);
      }),
  );
