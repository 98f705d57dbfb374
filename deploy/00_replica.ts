import type { DeployStep } from "./context";

/**
 * On hardhat/localhost: the Robinhood Chain replica (USDG, stock tokens, Uniswap v3 pools with a
 * trading history). Reuses one built in this process or recorded with code still on the node;
 * otherwise builds it. On a live network: the configured USDG and stocks.
 */
export const replicaStep: DeployStep = {
  name: "00_replica",
  async run(context) {
    const { config, record, hre } = context;
    if (!config.replica) {
      record.usdg = config.usdg;
      record.stocks = config.stocks.map((s) => ({ ...s }));
      context.save();
      return;
    }
    if (context.replica) {
      context.log(`  replica: using the one built in this process`);
    } else if (record.replica && (await hre.ethers.provider.getCode(record.replica.usdg)) !== "0x") {
      context.log(`  replica: reusing the one recorded (USDG ${record.replica.usdg})`);
    } else if (process.env.FORK_URL) {
      // A fork of a real chain: its real USDG, stock tokens and pools (config/robinhood.json),
      // behind the same interface as the replica, as the replica tests see them.
      context.log("  replica: attaching to the forked chain's real tokens and pools (FORK_URL)…");
      const { attachFork } = await import("../scripts/replica/fork");
      context.replica = await attachFork(process.env.FORK_URL);
    } else {
      context.log("  replica: building (tokens, Uniswap v3, pools, 48 h of trading)…");
      // Imported here: the builder imports the Hardhat runtime, which a task file must not at load.
      const { buildReplica } = await import("../scripts/replica/build");
      context.replica = await buildReplica();
    }
    if (context.replica) {
      const replica = context.replica;
      record.replica = {
        usdg: await replica.usdg.getAddress(),
        factory: await replica.factory.getAddress(),
        stocks: replica.stocks.map((s) => ({ symbol: s.symbol, address: s.address, pool: s.poolAddress })),
      };
    }
    record.usdg = record.replica!.usdg;
    record.stocks = record.replica!.stocks.map((s) => ({ ...s }));
    context.save();
  },
};
