import { parseArgs } from "node:util";
import { JsonRpcProvider, Network } from "ethers";
import { dayOf } from "../../modes/days";
import { ReceiptInputError } from "../../modes/errors";
import { NATIVE } from "../../modes/receipt/document";
import { checkReceiptArgs, readReceipt, receiptAddress, type ReceiptArgs } from "../../modes/receipt/chain";
import { appendModeRecord } from "../../store/queries/modes";
import { openStore } from "../../store/open";
import { type Command, UsageError } from "../command";
import { storeFrom } from "../../config/env";
import { parse, STORE_HELP, STORE_OPTIONS } from "../options";

const usage = `Usage: augur receipt --from <block> --to <block> [--rpc <url>] [--operator <address> ...]
                     [--token <address>] [--keeper <address>] [--settler <address>]
                     [--oracle <address> [--eth <address>]] [--json] [--save]

Reconstructs, from public chain records alone, everything spent and everything
burned in blocks --from … --to (inclusive, both mined), as a sealed JSON document
(augur-receipt/v2): anyone re-running it with the same arguments on the same
chain gets the same seal.

  spends   every ERC-20 Transfer out of the --operator wallets (any token: USDG
           stakes and funding included) and every ETH value they sent, to anyone
           but another operator wallet or a burn address
  burns    the same to 0x0000…0000 or 0x0000…dEaD, and every burn of --token
           whoever sends it
  gas      every transaction the operators, --keeper and --settler sent, found
           by reading each block (successful or reverted): gasUsed × effectiveGasPrice
  USDG     with --oracle, each line valued at its block's time by
           PriceOracle.priceAt (ETH and gas through the --eth asset); totals per
           asset in its units and in USDG

Options:
  --from <block>        first block (a number)
  --to <block>          last block (a number, at most the chain's head)
  --rpc <url>           JSON-RPC endpoint (env AUGUR_RPC_URL; default http://127.0.0.1:8545)
  --operator <address>  an operator wallet (repeat for each; the vesting contract is one)
  --token <address>     the project token, whose burns count whoever sends them
  --keeper <address>    the keeper account whose gas is counted
  --settler <address>   the settler account whose gas is counted (if not the keeper's)
  --oracle <address>    the PriceOracle that values each line in USDG
  --eth <address>       the oracle's asset standing for ETH (wrapped ETH)
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
  settler?: string;
  oracle?: string;
  eth?: string;
}): ReceiptArgs {
  const optional = (flag: "token" | "keeper" | "settler" | "oracle" | "eth") =>
    values[flag] !== undefined ? { [flag]: receiptAddress(`--${flag}`, values[flag]) } : {};
  return {
    fromBlock: blockNumber("--from", values.from),
    toBlock: blockNumber("--to", values.to),
    operators: (values.operator ?? []).map((a) => receiptAddress("--operator", a)),
    ...optional("token"),
    ...optional("keeper"),
    ...optional("settler"),
    ...optional("oracle"),
    ...optional("eth"),
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
          settler: { type: "string" },
          oracle: { type: "string" },
          eth: { type: "string" },
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
        `  chain ${receipt.chainId}, blocks ${receipt.range.fromBlock}–${receipt.range.toBlock}, ${t.lines} lines`,
        ...receipt.assets.map(
          (a) =>
            `  ${a.asset}: spent ${a.spent}, burned ${a.burned} (${a.burnedByOperators} by operators)` +
            (a.asset === NATIVE ? `, gas ${a.gas} wei` : "") +
            " base units",
        ),
        receipt.pricing
          ? `  in USDG base units: spent ${t.usdg.spent}, burned ${t.usdg.burned}, gas ${t.usdg.gas}, all ${t.usdg.all}` +
            (t.unpriced > 0 ? ` (${t.unpriced} lines unpriced)` : "")
          : "  no --oracle: nothing valued in USDG",
        values.save ? "  saved: served at /receipt and /api/v1/receipt" : "",
      ]
        .filter(Boolean)
        .join("\n") + "\n",
    );
    return 0;
  },
};
