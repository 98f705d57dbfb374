import { ZeroAddress } from "ethers";
import type { PriceOracle } from "../typechain-types";
import { configure, deployOnce } from "./contract";
import type { DeployStep } from "./context";

/**
 * PriceOracle(usdg, twapWindow, admin), its requiredSpan (twapWindow + settleGrace), then each
 * stock's pool (or price updater) registered.
 */
export const priceOracleStep: DeployStep = {
  name: "01_price_oracle",
  async run(context) {
    const { config, record, hre, deployer } = context;
    const address = await deployOnce(context, "PriceOracle", [record.usdg!, config.twapWindow, config.admin]);
    const oracle = (await hre.ethers.getContractAt(
      "PriceOracle",
      address,
      deployer,
    )) as unknown as PriceOracle;
    const span = config.twapWindow + config.settleGrace;
    if (Number(await oracle.requiredSpan()) !== span) {
      await configure(context, `oracle.setRequiredSpan(${span})`, () => oracle.setRequiredSpan(span));
    }
    for (const stock of record.stocks) {
      if (stock.pool) {
        const [pool] = await oracle.poolOf(stock.address);
        if (pool.toLowerCase() !== stock.pool.toLowerCase()) {
          await configure(context, `oracle.setPool(${stock.symbol}, ${stock.pool})`, () =>
            oracle.setPool(stock.address, stock.pool!),
          );
        }
      } else if (stock.updater) {
        const updater = await oracle.updaterOf(stock.address);
        if (updater === ZeroAddress || updater.toLowerCase() !== stock.updater.toLowerCase()) {
          await configure(context, `oracle.setUpdater(${stock.symbol}, ${stock.updater})`, () =>
            oracle.setUpdater(stock.address, stock.updater!),
          );
        }
      }
    }
  },
};
