import { Contract, getAddress, JsonRpcProvider } from "ethers";
import { CALL_LEDGER_ABI } from "../chain/abi/call-ledger";
import type { ClosesSource } from "../closes/cache";
import { OracleCloses } from "../closes/oracle";
import { MULTICALL3, RpcMeasureChain, type MeasureChain } from "../measure/chain";
import type { MeasureSource } from "../measure/hour";
import { confirmationsOption, integerOption, rpcOption, type Env } from "../config/env";
import type { FollowReport } from "../indexer/follow";
import { allOf, ledgerIndexer } from "../indexer/ledger";
import { registryIndexer } from "../indexer/registry";
import type { Store } from "../store/open";
import { KeeperConfigError } from "./errors";
import { ChainKeeper } from "./keeper";
import { RegistryReader } from "./registry";
import { loadSigner } from "./signer";
import { settleMaxOption } from "../settler/config";
import { Settler } from "../settler/settler";

/** parseArgs options shared by `augur keeper` and `augur cycle` (the chain side). */
export const KEEPER_OPTIONS = {
  rpc: { type: "string" },
  registry: { type: "string" },
  ledger: { type: "string" },
  oracle: { type: "string" },
  quoter: { type: "string" },
  confirmations: { type: "string" },
  keystore: { type: "string" },
  "start-block": { type: "string" },
  "replace-after": { type: "string" },
  wait: { type: "string" },
  "poll-ms": { type: "string" },
} as const;

export const KEEPER_HELP = `Chain (the keeper is on when --rpc and --registry are set):
  --rpc <url>            JSON-RPC endpoint (env AUGUR_RPC_URL), http(s)://
  --registry <address>   AnchorRegistry address (env AUGUR_REGISTRY)
  --ledger <address>     CallLedger address (env AUGUR_LEDGER): its events are indexed,
                         resolved calls of registered agents sealed as call records, and
                         (augur cycle, augur settle) due calls settled or expired
  --oracle <address>     PriceOracle address (env AUGUR_ORACLE; default: the ledger's
                         oracle()): the cycle seals every priced asset's hourly close
                         and measures the bound wallets of measured seasons
  --quoter <address>     Uniswap v3 QuoterV2 (env AUGUR_QUOTER): measured positions are
                         marked no higher than selling them into their pool would fetch
                         (without it, at the oracle price alone)
  --confirmations <n>    blocks a post must be under to count as anchored, 1 = mined
                         (env AUGUR_CONFIRMATIONS; default 1)
  --start-block <n>      block the contracts were deployed at; event searches start there
                         (env AUGUR_START_BLOCK; default 0)
  --replace-after <s>    seconds before an unmined post is replaced at the same nonce with
                         both fee caps raised 12.5 % (env AUGUR_REPLACE_AFTER; default 180)
  --wait <s>             seconds one run waits for its post to be mined before leaving it
                         pending for the next run (env AUGUR_KEEPER_WAIT; default 120)
  --poll-ms <ms>         receipt polling interval (default 2000)
  --keystore <file>      encrypted JSON keystore of the keeper key; its password in
                         KEEPER_KEYSTORE_PASSWORD (environment only)
  KEEPER_PRIVATE_KEY     the keeper key, 0x + 64 hex (environment only; or --keystore)`;

export type KeeperFlags = { readonly [K in keyof typeof KEEPER_OPTIONS]?: string };

/** A keeper wired to the chain, and the RPC connection to close after. */
export interface KeeperHandle {
  readonly keeper: ChainKeeper;
  readonly registry: RegistryReader;
  /** Follows the registry's (and the ledger's) events, reorg-safe, acting on confirmed ones. */
  readonly indexer: { poll(): Promise<FollowReport> };
  readonly sender: string;
  /** The PriceOracle's hourly closes (the referee's), when an oracle or a ledger is configured. */
  readonly closes?: ClosesSource;
  /** Resolves the ledger's due calls from the keeper's account, when a ledger is configured. */
  readonly settler?: Settler;
  /** Measuring wallets (measured seasons' snapshots): the chain and the oracle's listing and prices. */
  readonly measure?: { readonly chain: MeasureChain; readonly source: MeasureSource };
  close(): void;
}

/** Whether the flags or environment ask for a keeper at all. */
export function keeperConfigured(flags: KeeperFlags, env: Env): boolean {
  return Boolean((flags.rpc ?? env.AUGUR_RPC_URL) || (flags.registry ?? env.AUGUR_REGISTRY));
}

/** Validates every flag, connects, checks the chain id, loads the key. */
export async function openKeeper(
  flags: KeeperFlags & { readonly "settle-max"?: string },
  env: Env,
  store: Store,
  progress: (line: string) => void,
): Promise<KeeperHandle> {
  const rpc = rpcOption(flags, env);
  if (!/^https?:\/\/[^\s]+$/.test(rpc)) throw new KeeperConfigError("--rpc must be an http(s):// URL");
  const registryText = (flags.registry ?? env.AUGUR_REGISTRY ?? "").trim();
  const registryAddress = addressOption("--registry", registryText);
  const ledgerText = (flags.ledger ?? env.AUGUR_LEDGER ?? "").trim();
  const ledgerAddress = ledgerText ? addressOption("--ledger", ledgerText) : undefined;
  const oracleText = (flags.oracle ?? env.AUGUR_ORACLE ?? "").trim();
  let oracleAddress = oracleText ? addressOption("--oracle", oracleText) : undefined;
  const quoterText = (flags.quoter ?? env.AUGUR_QUOTER ?? "").trim();
  const quoterAddress = quoterText ? addressOption("--quoter", quoterText) : undefined;
  const confirmations = confirmationsOption(flags, env);
  const startBlock = integerOption(
    "--start-block",
    flags["start-block"] ?? env.AUGUR_START_BLOCK,
    0,
    0,
    2 ** 48,
  );
  const replaceAfter = integerOption(
    "--replace-after",
    flags["replace-after"] ?? env.AUGUR_REPLACE_AFTER,
    180,
    1,
    86_400,
  );
  const wait = integerOption("--wait", flags.wait ?? env.AUGUR_KEEPER_WAIT, 120, 0, 86_400);
  const pollMs = integerOption("--poll-ms", flags["poll-ms"], 2000, 10, 600_000);
  const settleMax = settleMaxOption(flags, env);
  const signer = await loadSigner({
    privateKey: env.KEEPER_PRIVATE_KEY || undefined,
    keystore: flags.keystore ?? (env.AUGUR_KEYSTORE || undefined),
    password: env.KEEPER_KEYSTORE_PASSWORD,
  });

  const provider = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, cacheTimeout: -1 });
  let chainId: number;
  try {
    chainId = Number(await provider.send("eth_chainId", []));
  } catch (error) {
    provider.destroy();
    throw new KeeperConfigError(`cannot reach ${new URL(rpc).origin}: ${(error as Error).message}`);
  }
  const expected = env.AUGUR_CHAIN_ID;
  if (expected && Number(expected) !== chainId) {
    provider.destroy();
    throw new KeeperConfigError(`the RPC serves chain ${chainId}, AUGUR_CHAIN_ID says ${expected}`);
  }
  for (const address of [registryAddress, ...(ledgerAddress ? [ledgerAddress] : [])]) {
    if ((await provider.getCode(address)) === "0x") {
      provider.destroy();
      throw new KeeperConfigError(`no contract at ${address} on chain ${chainId}`);
    }
  }
  if (!oracleAddress && ledgerAddress) {
    // The ledger settles against exactly one oracle: the referee's closes come from the same one.
    const ledger = new Contract(ledgerAddress, CALL_LEDGER_ABI, provider);
    oracleAddress = getAddress((await ledger.getFunction("oracle").staticCall()) as string);
  }
  if (oracleAddress && (await provider.getCode(oracleAddress)) === "0x") {
    provider.destroy();
    throw new KeeperConfigError(`no contract at ${oracleAddress} on chain ${chainId}`);
  }
  const registry = new RegistryReader(provider, registryAddress, chainId, startBlock);
  const now = () => Math.floor(Date.now() / 1000);
  const account = {
    store,
    provider,
    signer: signer.connect(provider),
    confirmations,
    replaceAfterSeconds: replaceAfter,
    waitMs: wait * 1000,
    pollMs,
    now,
    progress,
  };
  const keeper = new ChainKeeper({ ...account, registry });
  // Same account, same journal: the settler's transactions share the keeper's one open nonce.
  const settler = ledgerAddress
    ? new Settler({ ...account, chainId, ledger: ledgerAddress, maxPerPass: settleMax })
    : undefined;
  const followers = [
    registryIndexer({ store, provider, chainId, registry: registryAddress, startBlock, confirmations, now }),
  ];
  if (ledgerAddress) {
    followers.push(
      ledgerIndexer({ store, provider, chainId, ledger: ledgerAddress, startBlock, confirmations, now }),
    );
  }
  const indexer = allOf(followers);
  const closes = oracleAddress ? new OracleCloses(provider, oracleAddress, chainId, startBlock) : undefined;
  // Balances are read through Multicall3 where the chain has it, else JSON-RPC batches of eth_call.
  const multicall = closes && (await provider.getCode(MULTICALL3)) !== "0x" ? MULTICALL3 : undefined;
  return {
    keeper,
    registry,
    indexer,
    sender: signer.address,
    ...(closes
      ? {
          closes,
          measure: { chain: new RpcMeasureChain(provider, quoterAddress, multicall), source: closes },
        }
      : {}),
    ...(settler ? { settler } : {}),
    close: () => provider.destroy(),
  };
}

/** A 20-byte address, lowercase or with a valid EIP-55 checksum. */
function addressOption(name: string, value: string): string {
  try {
    return getAddress(value);
  } catch {
    throw new KeeperConfigError(`${name} must be a 20-byte 0x address, not '${value}'`);
  }
}
