import { Interface } from "ethers";

/**
 * The slice of PriceOracle the closes cache reads (contracts/interfaces/IPriceOracle.sol),
 * written out like the other ABIs here so a plain install of the engine needs no typechain-types/.
 */
export const PRICE_ORACLE_ABI = [
  "function priceAt(address asset, uint256 timestamp) view returns (uint256)",
  "function twapWindow() view returns (uint32)",
  "function usdg() view returns (address)",
  "event PoolSet(address indexed asset, address indexed pool, address previousPool, bool assetIsToken0, uint8 assetDecimals, uint8 usdgDecimals)",
  "event UpdaterSet(address indexed asset, address previousUpdater, address indexed updater)",
  "error PriceOracleNoSource(address asset)",
  "error PriceOracleWindowNotCovered(address asset, uint256 timestamp, uint256 oldestCovered)",
  "error PriceOracleObserveFailed(address pool)",
  "error PriceOracleFutureTimestamp(uint256 timestamp, uint256 nowTimestamp)",
  "error PriceOracleStalePrice(address asset, uint256 pricedAt, uint256 timestamp, uint256 maxStaleness)",
] as const;

export const priceOracle = new Interface(PRICE_ORACLE_ABI);
