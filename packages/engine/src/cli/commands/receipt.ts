import { parseArgs } from "node:util";
import { JsonRpcProvider, Network } from "ethers";
import { dayOf } from "../../modes/days";
import { ReceiptInputError } from "../../modes/errors";
import { checkReceiptArgs, readReceipt, receiptAddress, type ReceiptArgs } from "../../modes/receipt/chain";
import { appendModeRecord } from "../../store/queries/modes";
import { openStore } from "../../store/open";
import { type Command, UsageError } from "../command";
import { storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";

const usage = `Usage: augur receipt --from <block> --to <block> [--rpc <url>] [--token <address>]
                     [--operator <address> ...] [--keeper <address>] [--json] [--save]

Reconstructs, from public chain records alone, everything spent and everything
burned in blocks --from … --to (inclusive, both mined), as a sealed JSON document
(augur-receipt/v1): anyone re-running it with the same arguments on the same
chain gets the same seal.

  spends   Transfer logs of --token out of the --operator wallets (to anyone but
           another operator wallet or a burn address)
  burns    Transfer logs of --token to 0x0000…0000 or 0x0000…dEaD, from anyone
  gas      every transaction --keeper sent in the range, found by reading each
           block (successful or reverted): gasUsed × effectiveGasPrice

Options:
  --from <block>        first block (a number)
  --to <block>          last block (a number, at most the chain's head)
  --rpc <url>           JSON-RPC endpoint (env AUGUR_RPC_URL; default http://127.0.0.1:8545)
  --token <address>     the ERC-20 whose spends and burns are counted
  --operator <address>  an operator wallet (repeat for each; needs --token)
  --keeper <address>    the keeper account whose gas is counted
  --json                print { seal, receipt } as JSON instead of the summary
  --save                also store it in the engine's store (served at /receipt)

Exit codes: 0 done, 1 refused or unreachable (one line saying why), 2 bad usage.

${STORE_HELP}
`;

async function rpcChainId(rpc: string): Promise<bigint> {
  try {
    const res = await fetch(rpc, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as { result?: string };
    if (typeof body.result !== "string") throw new Error("no chain id in the answer");
    return BigInt(body.result);
  } catch (error) {
    throw new ReceiptInputError(`cannot reach the JSON-RPC endpoint ${rpc} (${(error as Error).message})`);
  }
}

function blockNumber(flag: string, text: string | undefined): number {
  if (text === undefined) throw new UsageError(`${flag} <block> is required`);
  if (!/^[0-9]{1,15}$/.test(text)) throw new UsageError(`${flag} must be a block number, not '${text}'`);
  return Number(text);
}

/** The receipt's arguments from the command line, every one checked before the chain is asked. */
export function receiptArgs(values: {
  from?: string;
  to?: string;
  token?: string;
  operator?: string[];
  keeper?: string;
}): ReceiptArgs {
  return {
    fromBlock: blockNumber("--from", values.from),
    toBlock: blockNumber("--to", values.to),
    ...(values.token !== undefined ? { token: receiptAddress("--token", values.token) } : {}),
    operators: (values.operator ?? []).map((a) => receiptAddress("--operator", a)),
    ...(values.keeper !== undefined ? { keeper: receiptAddress("--keeper", values.keeper) } : {}),
  };
}

export const command: Command = {
  name: "receipt",
  summary: "reconstruct the final receipt (spent, burned, keeper gas) from public chain records",
  usage,
  async run(argv, io) {
    const { values } = parse(() =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...STORE_OPTIONS,
          from: { type: "string" },
          to: { type: "string" },
          rpc: { type: "string" },
          token: { type: "string" },
          operator: { type: "string", multiple: true },
          keeper: { type: "string" },
          json: { type: "boolean" },
          save: { type: "boolean" },
        },
      }),
    );
    const args = receiptArgs(values);
    checkReceiptArgs(args); // before any connection: a wrong range never reaches the chain
    const rpc = (values.rpc ?? process.env.AUGUR_RPC_URL ?? "http://127.0.0.1:8545").trim();
    if (!/^https?:\/\/[^\s]+$/.test(rpc)) throw new UsageError("--rpc must be an http(s):// URL");
    // The chain id is asked once up front: an unreachable endpoint fails here in one line,
    // instead of ethers retrying its network detection forever.
    const chainId = await rpcChainId(rpc);
    const provider = new JsonRpcProvider(rpc, Network.from(chainId), {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    let result;
    try {
      result = await readReceipt(provider, args);
    } finally {
      provider.destroy();
    }
    const { seal, receipt } = result;
    if (values.save) {
      const store = await openStore(storeFrom(values, process.env));
      try {
        const now = Math.floor(Date.now() / 1000);
        await store.db
          .transaction()
          .execute((trx) => appendModeRecord(trx, { kind: "receipt", day: dayOf(now), body: receipt }, now));
      } finally {
        await store.close();
      }
    }
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ seal, receipt })}\n`);
      return 0;
    }
    const t = receipt.totals;
    io.stdout.write(
      [
        `receipt ${seal}`,
        `  chain ${receipt.chainId}, blocks ${receipt.range.fromBlock}–${receipt.range.toBlock}`,
        `  spent   ${t.spent} base units of ${receipt.token ?? "(no token)"} in ${receipt.spends.length} transfers`,
        `  burned  ${t.burned} base units (${t.burnedByOperators} by operator wallets) in ${receipt.burns.length} transfers`,
        `  keeper  ${t.keeperFeeWei} wei of gas in ${t.keeperTransactions} transactions`,
        values.save ? "  saved: served at /receipt and /api/v1/receipt" : "",
      ]
        .filter(Boolean)
        .join("\n") + "\n",
    );
    return 0;
  },
};
