import { parseArgs } from "node:util";
import { buildApp } from "../../api/app";
import { RECORD_GRACE_SECONDS } from "../../records/ingest";
import { DEFAULT_INGEST_WORKERS } from "../../records/ingest-pool";
import { openStore } from "../../store/open";
import { assertBuildFormulasNoticed } from "../../cycle/formulas";
import type { Command } from "../command";
import { JsonRpcProvider } from "ethers";
import { eip1271Check } from "../../records/wallet";
import {
  assetsOption,
  creatorsOption,
  DEFAULT_SERVER_LIMITS,
  integerOption,
  publicOriginOption,
  rpcOption,
  SERVER_LIMIT_OPTIONS,
  serverLimitsOption,
  storeFrom,
} from "../../config/env";
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
  --assets <list>          tickers shown for asset addresses and accepted in their place,
                           TICKER=0xaddress,… (env AUGUR_ASSETS; default none)
  --creators <list>        names shown for creator addresses (display only, never sealed or
                           scored), NAME=0xaddress,… (env AUGUR_CREATORS; default none)
  --public-origin <url>    the origin the site prints in its URLs and its verify command, e.g.
                           https://augur.example (env AUGUR_PUBLIC_ORIGIN; default the listen
                           address; the request's Host header is never used)
  --headers-timeout-ms <n> a client's whole header block within this, else 408 (env
                           AUGUR_HEADERS_TIMEOUT_MS; default ${DEFAULT_SERVER_LIMITS.headersTimeoutMs})
  --request-timeout-ms <n> the whole request, body included, within this (env
                           AUGUR_REQUEST_TIMEOUT_MS; default ${DEFAULT_SERVER_LIMITS.requestTimeoutMs})
  --keep-alive-timeout-ms <n>  an idle keep-alive socket is closed after this (env
                           AUGUR_KEEP_ALIVE_TIMEOUT_MS; default ${DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs})
  --idle-timeout-ms <n>    a socket with no traffic is closed after this (env
                           AUGUR_IDLE_TIMEOUT_MS; default ${DEFAULT_SERVER_LIMITS.idleTimeoutMs})
  --max-connections <n>    open sockets beyond this are closed on arrival (env
                           AUGUR_MAX_CONNECTIONS; default ${DEFAULT_SERVER_LIMITS.maxConnections})
  --record-grace <s>       how long before its arrival a record may be dated, seconds (env
                           AUGUR_RECORD_GRACE; default 600); widen it only to import history
  --ingest-workers <n>     threads that check submitted records (fields, signature
                           recovery) off the request loop: 1 is the record writer's own
                           thread, more are workers beside it; 0 checks them inline (env
                           AUGUR_INGEST_WORKERS; default ${DEFAULT_INGEST_WORKERS} here: the cores less one, at most 4)
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
          assets: { type: "string" },
          creators: { type: "string" },
          "public-origin": { type: "string" },
          ...SERVER_LIMIT_OPTIONS,
          "record-grace": { type: "string" },
          "ingest-workers": { type: "string" },
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
    const recordGrace = integerOption(
      "--record-grace",
      values["record-grace"] ?? env.AUGUR_RECORD_GRACE,
      RECORD_GRACE_SECONDS,
      0,
      2 ** 53 - 1,
    );
    const ingestWorkers = integerOption(
      "--ingest-workers",
      values["ingest-workers"] ?? env.AUGUR_INGEST_WORKERS,
      DEFAULT_INGEST_WORKERS,
      0,
      64,
    );
    const limits = serverLimitsOption(values, env);
    const publicOrigin = publicOriginOption(values["public-origin"], env);
    const assets = assetsOption(values.assets ?? env.AUGUR_ASSETS);
    const creators = creatorsOption(values.creators ?? env.AUGUR_CREATORS);
    const rpc = rpcOption(values, env);
    const contractWallets = rpc
      ? eip1271Check(new JsonRpcProvider(rpc, chainId, { staticNetwork: true }))
      : undefined;
    const store = await openStore(storeFrom(values, env));
    await assertBuildFormulasNoticed(store.db).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
    const app = await buildApp(
      {
        store,
        chainId,
        now: () => Math.floor(Date.now() / 1000),
        assets,
        creators,
        recordGrace,
        contractWallets,
      },
      {
        logger: { level: env.LOG_LEVEL ?? "info", stream: process.stderr },
        writesPerMinute,
        ingestWorkers,
        limits,
        ...(publicOrigin ? { publicOrigin } : {}),
      },
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
