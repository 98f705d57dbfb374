import { STEWARDSHIP_V1 } from "@augur/scorer";

export const RECEIPT_FORMAT = "augur-receipt/v1";

/** Where burned tokens go: the stewardship rules' burn addresses (one list, in the scorer). */
export const BURN_ADDRESSES: readonly string[] = STEWARDSHIP_V1.burnAddresses;

/** How the keeper's gas is found, stated inside the sealed document. */
export const KEEPER_GAS_METHOD =
  "every transaction sent by the keeper address in the block range (found by reading each block), successful or reverted; fee = gasUsed × effectiveGasPrice";

/** One ERC-20 Transfer log of the token, amount in base units. */
export interface ChainTransfer {
  readonly block: number;
  readonly tx: string;
  readonly logIndex: number;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** One transaction the keeper sent, from its receipt. */
export interface ChainKeeperTx {
  readonly block: number;
  readonly tx: string;
  readonly index: number;
  readonly status: number;
  readonly gasUsed: bigint;
  readonly effectiveGasPrice: bigint;
}

export interface ReceiptTransfer {
  readonly block: number;
  readonly tx: string;
  readonly logIndex: number;
  readonly from: string;
  readonly to: string;
  readonly amount: string;
}

export interface ReceiptKeeperTx {
  readonly block: number;
  readonly tx: string;
  readonly index: number;
  readonly status: number;
  readonly gasUsed: string;
  readonly effectiveGasPrice: string;
  readonly fee: string;
}

/** The sealed final receipt: every number is a decimal string of base units or wei. */
export interface ReceiptDocument {
  readonly format: typeof RECEIPT_FORMAT;
  readonly chainId: number;
  /** The range read, pinned by the hashes of its first and last blocks (another chain, another seal). */
  readonly range: {
    readonly fromBlock: number;
    readonly toBlock: number;
    readonly fromHash: string;
    readonly toHash: string;
  };
  readonly token: string | null;
  readonly operators: readonly string[];
  readonly keeper: string | null;
  readonly burnAddresses: readonly string[];
  readonly keeperGasMethod: typeof KEEPER_GAS_METHOD;
  /** Transfers out of an operator wallet to anyone but another operator wallet or a burn address. */
  readonly spends: readonly ReceiptTransfer[];
  /** Transfers to a burn address, whoever sent them. */
  readonly burns: readonly ReceiptTransfer[];
  readonly keeperTransactions: readonly ReceiptKeeperTx[];
  readonly totals: {
    readonly spent: string;
    readonly spentByOperator: Readonly<Record<string, string>>;
    readonly burned: string;
    readonly burnedByOperators: string;
    readonly keeperFeeWei: string;
    readonly keeperTransactions: number;
  };
}

export interface ReceiptInput {
  readonly chainId: number;
  readonly range: ReceiptDocument["range"];
  readonly token: string | null;
  readonly operators: readonly string[];
  readonly keeper: string | null;
  readonly transfers: readonly ChainTransfer[];
  readonly keeperTxs: readonly ChainKeeperTx[];
}

const byChainOrder = (a: { block: number; logIndex: number }, b: { block: number; logIndex: number }) =>
  a.block - b.block || a.logIndex - b.logIndex;

const view = (t: ChainTransfer): ReceiptTransfer => ({
  block: t.block,
  tx: t.tx.toLowerCase(),
  logIndex: t.logIndex,
  from: t.from.toLowerCase(),
  to: t.to.toLowerCase(),
  amount: t.amount.toString(),
});

const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * Assembles the receipt from what the chain answered, whatever order it came in: transfers in
 * chain order (each log once), keeper transactions in block and index order, addresses
 * lowercase, operator list sorted, amounts as decimal strings. Same chain data, same document,
 * same seal.
 */
export function receiptDocument(input: ReceiptInput): ReceiptDocument {
  const operators = [...new Set(input.operators.map((a) => a.toLowerCase()))].sort();
  const isOperator = new Set(operators);
  const isBurn = new Set(BURN_ADDRESSES);
  const unique = new Map<string, ChainTransfer>();
  for (const t of input.transfers) unique.set(`${t.tx.toLowerCase()}:${t.logIndex}`, t);
  const transfers = [...unique.values()].sort(byChainOrder);
  const burns = transfers.filter((t) => isBurn.has(t.to.toLowerCase()));
  const spends = transfers.filter(
    (t) =>
      isOperator.has(t.from.toLowerCase()) &&
      !isOperator.has(t.to.toLowerCase()) &&
      !isBurn.has(t.to.toLowerCase()),
  );
  const spentByOperator: Record<string, string> = {};
  for (const op of operators) {
    const total = sum(spends.filter((t) => t.from.toLowerCase() === op).map((t) => t.amount));
    if (total > 0n) spentByOperator[op] = total.toString();
  }
  const keeperTxs = [...new Map(input.keeperTxs.map((t) => [t.tx.toLowerCase(), t])).values()].sort(
    (a, b) => a.block - b.block || a.index - b.index,
  );
  const keeperTransactions = keeperTxs.map((t) => ({
    block: t.block,
    tx: t.tx.toLowerCase(),
    index: t.index,
    status: t.status,
    gasUsed: t.gasUsed.toString(),
    effectiveGasPrice: t.effectiveGasPrice.toString(),
    fee: (t.gasUsed * t.effectiveGasPrice).toString(),
  }));
  return {
    format: RECEIPT_FORMAT,
    chainId: input.chainId,
    range: input.range,
    token: input.token?.toLowerCase() ?? null,
    operators,
    keeper: input.keeper?.toLowerCase() ?? null,
    burnAddresses: [...BURN_ADDRESSES],
    keeperGasMethod: KEEPER_GAS_METHOD,
    spends: spends.map(view),
    burns: burns.map(view),
    keeperTransactions,
    totals: {
      spent: sum(spends.map((t) => t.amount)).toString(),
      spentByOperator,
      burned: sum(burns.map((t) => t.amount)).toString(),
      burnedByOperators: sum(
        burns.filter((t) => isOperator.has(t.from.toLowerCase())).map((t) => t.amount),
      ).toString(),
      keeperFeeWei: sum(keeperTxs.map((t) => t.gasUsed * t.effectiveGasPrice)).toString(),
      keeperTransactions: keeperTxs.length,
    },
  };
}
