import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig, NetworkUserConfig } from "hardhat/types";
import "@nomicfoundation/hardhat-toolbox";
// Same fast-check seed and run count as the packages' tests.
import "./scripts/fc-setup.cjs";

// No compiler can be downloaded on our machines or in CI: every solc version Hardhat asks for is
// served from an npm package (solc-js). Adding a version means adding its package here and in
// package.json (as an npm alias for a second version).
const SOLC_JS_PACKAGES: Readonly<Record<string, string>> = {
  "0.8.28": "solc",
  "0.7.6": "solc-0.7.6",
};

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }: { solcVersion: string }) => {
  const pkg = SOLC_JS_PACKAGES[solcVersion];
  if (pkg === undefined) {
    throw new Error(
      `solc ${solcVersion} is not available offline; known: ${Object.keys(SOLC_JS_PACKAGES).join(", ")}`,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require(pkg) as { version(): string };
  return {
    compilerPath: require.resolve(`${pkg}/soljson.js`),
    isSolcJs: true,
    version: solcVersion,
    longVersion: solc.version(),
  };
});

const OPTIMIZED = {
  // Calls into the ledger and oracle vastly outnumber deployments: favour runtime gas.
  optimizer: { enabled: true, runs: 10_000 },
  // Arbitrum Nitro (ArbOS 20+) supports Cancun opcodes; nothing here needs a later fork.
  evmVersion: "cancun",
  // Identical sources give identical bytecode whatever the metadata, so builds are reproducible.
  metadata: { bytecodeHash: "none" as const },
};

/** A remote network is configured only when its RPC URL is in the environment. */
function remote(urlVariable: string, chainId: number): NetworkUserConfig {
  const key = process.env.DEPLOYER_PRIVATE_KEY;
  return {
    url: process.env[urlVariable] ?? "http://127.0.0.1:1",
    chainId,
    accounts: key ? [key] : [],
  };
}

const forkUrl = process.env.FORK_URL;

const config: HardhatUserConfig = {
  solidity: {
    compilers: [{ version: "0.8.28", settings: OPTIMIZED }],
    // Gas baseline only (a test harness): Uniswap's periphery OracleLibrary and the v3-core libraries
    // it imports are <0.8 sources, compiled as-is with solc 0.7.6 (which predates Cancun).
    overrides: Object.fromEntries(
      [
        "contracts/test/UniswapOracleHarness.sol",
        "@uniswap/v3-periphery/contracts/libraries/OracleLibrary.sol",
        "@uniswap/v3-core/contracts/libraries/TickMath.sol",
        "@uniswap/v3-core/contracts/libraries/FullMath.sol",
      ].map((file) => [file, { version: "0.7.6", settings: { ...OPTIMIZED, evmVersion: "istanbul" } }]),
    ),
  },
  networks: {
    hardhat: {
      chainId: 31337,
      // Pools and the ledger are exercised with many accounts in the model-based tests.
      accounts: { count: 20 },
      ...(forkUrl
        ? {
            forking: {
              url: forkUrl,
              ...(process.env.FORK_BLOCK ? { blockNumber: Number(process.env.FORK_BLOCK) } : {}),
            },
          }
        : {}),
    },
    localhost: { url: process.env.LOCALHOST_RPC_URL ?? "http://127.0.0.1:8545", chainId: 31337 },
    robinhoodTestnet: remote("ROBINHOOD_TESTNET_RPC_URL", 46630),
    robinhood: remote("ROBINHOOD_RPC_URL", 4663),
  },
  paths: {
    sources: "./contracts",
    tests: "./test",
  },
  typechain: { outDir: "typechain-types", target: "ethers-v6" },
  gasReporter: {
    enabled: process.env.REPORT_GAS === "true",
    currency: "USD",
    outputJSON: true,
    outputJSONFile: "gas-report.json",
    reportPureAndViewMethods: true,
    darkMode: false,
    noColors: true,
  },
  mocha: {
    timeout: 120_000,
    reporter: "./scripts/mocha-summary-reporter.cjs",
  },
};

export default config;
