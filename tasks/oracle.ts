import { task } from "hardhat/config";
import { Contract, getAddress, isAddress, parseUnits, ZeroAddress } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { AgentError, BadArgumentError, PRICE_ORACLE_ABI, send, UnknownAssetError } from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { assetsOf, loadDeployment, roleSigner } from "./lib/runtime";

const POOL_ABI = [
  "function token0() view returns (address)",
  "function token1() view returns (address)",
] as const;

class NotAuthorizedError extends AgentError {
  override readonly name = "NotAuthorizedError";
  constructor(who: string, role: string, holder: string) {
    super(
      "NOT_AUTHORIZED",
      `${who} is not the ${role} (${holder}): sign with that key (see docs/deploy.md)`,
      {
        who,
        role,
        holder,
      },
    );
  }
}

/** A stock symbol of the deployment or a token address. */
function assetArgument(assets: Record<string, string>, asset: string): string {
  const bySymbol = Object.entries(assets).find(([symbol]) => symbol.toUpperCase() === asset.toUpperCase());
  if (bySymbol) return getAddress(bySymbol[1]);
  if (isAddress(asset)) return getAddress(asset);
  throw new UnknownAssetError(asset, Object.keys(assets));
}

async function oracleAs(hre: HardhatRuntimeEnvironment, role: "DEPLOYER" | "UPDATER", account?: string) {
  const record = await loadDeployment(hre);
  const signer = await roleSigner(hre, role, account);
  const oracle = new Contract(record.contracts.PriceOracle!.address, PRICE_ORACLE_ABI, signer);
  return { record, signer, oracle, from: getAddress(await signer.getAddress()) };
}

task(
  "oracle:set-pool",
  "Owner: price an asset from its Uniswap v3 USDG pool (TWAP); the pool then always wins",
)
  .addParam("asset", "stock symbol or token address")
  .addParam("pool", "the Uniswap v3 pool of the asset against USDG")
  .addOptionalParam("account", "local networks only: index of the node account to act as (default 0)")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { asset: string; pool: string; account?: string; json: boolean }, hre) =>
    guarded(async () => {
      const { record, oracle, from } = await oracleAs(hre, "DEPLOYER", args.account);
      const asset = assetArgument(assetsOf(record), args.asset);
      if (!isAddress(args.pool)) throw new BadArgumentError("pool", "must be an address", args.pool);
      const poolAddress = getAddress(args.pool);
      if ((await hre.ethers.provider.getCode(poolAddress)) === "0x") {
        throw new BadArgumentError("pool", "has no contract on this network", poolAddress);
      }
      const owner = (await oracle.getFunction("owner")()) as string;
      if (getAddress(owner) !== from) throw new NotAuthorizedError(from, "oracle owner", owner);
      const pool = new Contract(poolAddress, POOL_ABI, hre.ethers.provider);
      let tokens: string[];
      try {
        tokens = [
          (await pool.getFunction("token0")()) as string,
          (await pool.getFunction("token1")()) as string,
        ];
      } catch {
        throw new BadArgumentError("pool", "is not a Uniswap v3 pool (no token0/token1)", poolAddress);
      }
      const usdg = (await oracle.getFunction("usdg")()) as string;
      const pair = tokens.map((t) => t.toLowerCase()).sort();
      if (pair.join() !== [asset.toLowerCase(), usdg.toLowerCase()].sort().join()) {
        throw new BadArgumentError(
          "pool",
          `trades ${tokens.join("/")}, not the asset against USDG`,
          poolAddress,
        );
      }
      const [current] = (await oracle.getFunction("poolOf")(asset)) as [string];
      if (current !== ZeroAddress) {
        throw new BadArgumentError(
          "asset",
          `is already priced by its pool ${current}: a pool, once set, is never replaced`,
          asset,
        );
      }
      const sent = await send(oracle.getFunction("setPool"), [asset, poolAddress]);
      return report(args.json, { asset, pool: poolAddress, ...sent }, () => [
        `oracle now prices ${args.asset} from pool ${poolAddress} (tx ${sent.txHash})`,
      ]);
    }),
  );

task("oracle:push", "Updater: push a price for an asset that has no pool (kept as a checkpoint history)")
  .addParam("asset", "stock symbol or token address")
  .addParam("price", "USDG per whole token, e.g. 182.35")
  .addOptionalParam("account", "local networks only: index of the node account to act as (default 0)")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { asset: string; price: string; account?: string; json: boolean }, hre) =>
    guarded(async () => {
      if (!/^\d+(\.\d{1,18})?$/.test(args.price.trim()) || /^0*(\.0*)?$/.test(args.price.trim())) {
        throw new BadArgumentError(
          "price",
          "must be a positive USDG price with at most 18 decimals, e.g. 182.35",
          args.price,
        );
      }
      const price18 = parseUnits(args.price.trim(), 18);
      const { record, oracle, from } = await oracleAs(hre, "UPDATER", args.account);
      const asset = assetArgument(assetsOf(record), args.asset);
      const [pool] = (await oracle.getFunction("poolOf")(asset)) as [string];
      if (pool !== ZeroAddress) {
        throw new BadArgumentError(
          "asset",
          `is priced by its pool ${pool}: pushed prices are only for assets without one`,
          asset,
        );
      }
      const updater = (await oracle.getFunction("updaterOf")(asset)) as string;
      if (updater === ZeroAddress || getAddress(updater) !== from) {
        throw new NotAuthorizedError(
          from,
          `price updater of ${args.asset}`,
          updater === ZeroAddress ? "none set: the owner names one with setUpdater" : updater,
        );
      }
      const sent = await send(oracle.getFunction("pushPrice"), [asset, price18]);
      return report(args.json, { asset, price18, ...sent }, () => [
        `pushed ${args.price} USDG for ${args.asset} (tx ${sent.txHash})`,
      ]);
    }),
  );
