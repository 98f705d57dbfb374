import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig, NetworkUserConfig } from "hardhat/types";
import "@nomicfoundation/hardhat-toolbox";
// Same fast-check seed and run count as the packages' tests.
import "./scripts/fc-setup.cjs";
// The Augur tasks: deploy, agent calls and stake, consensus, oracle admin, keeper.
import "./tasks";

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

/** A chain id from the environment (the fork rehearsal poses a node as Robinhood Chain), else 31337. */
function chainIdFrom(variable: string): number {
  const text = process.env[variable];
  if (text === undefined || text === "") return 31337;
  if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`${variable} must be a positive chain id, not '${text}'`);
  return Number(text);
}

// Forking runs calls at (or before) the fork block under the remote chain's hardfork history, which
// Hardhat knows only for a few chains. Robinhood Chain (Arbitrum Nitro, ArbOS 20+) has run Cancun
// opcodes from its first block; the contracts target Cancun too.
const ROBINHOOD_HARDFORKS = { hardforkHistory: { cancun: 0 } };

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
      // HARDHAT_CHAIN_ID: what `hardhat node` claims to be (4663 in the fork rehearsal of `npm test`).
      chainId: chainIdFrom("HARDHAT_CHAIN_ID"),
      chains: { 4663: ROBINHOOD_HARDFORKS, 46630: ROBINHOOD_HARDFORKS },
      // Pools and the ledger are exercised with many accounts in the model-based tests.
      accounts: { count: 20 },
      ...(forkUrl
        ? {
            forking: {
              url: forkUrl,
              ...(process.env.FORK_BLOCK ? { blockNumber: Number(process.env.FORK_BLOCK) } : {}),
            },
            // Gas is play money on a fork. Left to derive it, Hardhat gave the first local block a base fee
            // (640,329 wei) far above the forked block's own (a few wei after hours of empty blocks), which
            // ethers bids from: every first transaction was refused.
            initialBaseFeePerGas: 0,
          }
        : {}),
    },
    localhost: {
      url: process.env.LOCALHOST_RPC_URL ?? "http://127.0.0.1:8545",
      chainId: chainIdFrom("LOCALHOST_CHAIN_ID"),
    },
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
