import { parseArgs } from "node:util";
import { buildApp } from "../../api/app";
import { openStore } from "../../store/open";
import type { Command } from "../command";
import { JsonRpcProvider } from "ethers";
import { eip1271Check } from "../../records/wallet";
import { integerOption, rpcOption, storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";

export const command: Command = {
  name: "serve",
  summary: "run the HTTP API (migrates the store first)",
  usage: `Usage: augur serve [--port <n>] [--host <addr>] [--data-dir <dir>] [--chain-id <id>]

Migrates the store, then serves the API under /api/v1 (OpenAPI at /api/v1/openapi.json)
until SIGINT or SIGTERM. Prints the URL it listens on.

Options:
  --port <n>               TCP port (env PORT; default 8787; 0 picks a free port)
  --host <addr>            interface (env HOST; default 127.0.0.1)
  --chain-id <id>          EIP-712 chain id records must be signed for (env AUGUR_CHAIN_ID;
                           default 31337)
  --writes-per-minute <n>  record submissions per client IP per minute (env
                           AUGUR_WRITES_PER_MINUTE; default 600)
  --rpc <url>              JSON-RPC of the chain (env AUGUR_RPC_URL): lets a registration
                           bind a contract wallet (EIP-1271); without it only EOAs bind
  LOG_LEVEL                pino level for the JSON logs on stderr (default info)

${STORE_HELP}
`,
  async run(argv, io) {
    const { values } = parse(() =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...STORE_OPTIONS,
          port: { type: "string" },
          host: { type: "string" },
          "chain-id": { type: "string" },
          "writes-per-minute": { type: "string" },
          rpc: { type: "string" },
        },
      }),
    );
    const env = process.env;
    const port = integerOption("--port", values.port ?? env.PORT, 8787, 0, 65535);
    const host = values.host ?? env.HOST ?? "127.0.0.1";
    const chainId = integerOption(
      "--chain-id",
      values["chain-id"] ?? env.AUGUR_CHAIN_ID,
      31337,
      1,
      2 ** 53 - 1,
    );
    const writesPerMinute = integerOption(
      "--writes-per-minute",
      values["writes-per-minute"] ?? env.AUGUR_WRITES_PER_MINUTE,
      600,
      1,
      1_000_000,
    );
    const rpc = rpcOption(values, env);
    const contractWallets = rpc
      ? eip1271Check(new JsonRpcProvider(rpc, chainId, { staticNetwork: true }))
      : undefined;
    const store = await openStore(storeFrom(values, env));
    const app = await buildApp(
      { store, chainId, now: () => Math.floor(Date.now() / 1000), contractWallets },
      { logger: { level: env.LOG_LEVEL ?? "info", stream: process.stderr }, writesPerMinute },
    );
    let address: string;
    try {
      address = await app.listen({ port, host });
    } catch (error) {
      await app.close();
      await store.close();
      throw error;
    }
    io.stdout.write(`augur serve: listening on ${address} (store ${store.description}, chain ${chainId})\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    await app.close();
    await store.close();
    io.stdout.write("augur serve: stopped\n");
    return 0;
  },
};
