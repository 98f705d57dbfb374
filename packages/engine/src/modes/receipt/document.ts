import { STEWARDSHIP_V1 } from "@augur/scorer";

export const RECEIPT_FORMAT = "augur-receipt/v2";

/** Where burned tokens go: the stewardship rules' burn addresses (one list, in the scorer). */
export const BURN_ADDRESSES: readonly string[] = STEWARDSHIP_V1.burnAddresses;

/** The asset name of the chain's native currency in a receipt (every other asset is its contract). */
export const NATIVE = "eth";

/** How each part is found, stated inside the sealed document so a reader can redo it. */
export const RECEIPT_METHODS = {
  transfers:
    "every ERC-20 Transfer log whose sender is an operator wallet (any token contract), and every Transfer of the project token to a burn address, in the block range",
  native:
    "every successful transaction an operator wallet sent with a value, found by reading each block (ETH a contract forwards for them is not seen)",
  gas: "every transaction the operator wallets, the keeper and the settler sent, found by reading each block, successful or reverted; fee = gasUsed × effectiveGasPrice",
  pricing:
    "each line in USDG at its block's time: amount × PriceOracle.priceAt(asset, block timestamp) / 10^decimals, floored to USDG base units; USDG itself at 1; gas as ETH; a line the oracle cannot price is null and counted in unpriced",
} as const;

/** One ERC-20 Transfer log, amount in the asset's base units. */
export interface ChainTransfer {
  readonly block: number;
  readonly txIndex: number;
  readonly tx: string;
  readonly logIndex: number;
  readonly asset: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** One successful transaction that carried a value (wei) out of an operator wallet. */
export interface ChainNativeSend {
  readonly block: number;
  readonly txIndex: number;
  readonly tx: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** One transaction a counted account sent, from its receipt. */
export interface ChainGasTx {
  readonly block: number;
  readonly txIndex: number;
  readonly tx: string;
  readonly from: string;
  readonly status: number;
  readonly gasUsed: bigint;
  readonly effectiveGasPrice: bigint;
}

/** Where the receipt's USDG values come from; null when no oracle was given. */
export interface ReceiptPricing {
  readonly oracle: string;
  readonly usdg: string;
  readonly usdgDecimals: number;
  /** The oracle's asset standing for ETH (a wrapped ETH), or null: ETH and gas stay unpriced. */
  readonly eth: string | null;
}

/** A spend or a burn: `logIndex` is null for a native transfer (a transaction's value). */
export interface ReceiptLine {
  readonly block: number;
  readonly txIndex: number;
  readonly tx: string;
  readonly logIndex: number | null;
  readonly asset: string;
  readonly from: string;
  readonly to: string;
  readonly amount: string;
  /** USDG base units at the block's time, or null when the oracle has no price. */
  readonly usdg: string | null;
}

export type GasRole = "operator" | "keeper" | "settler";

export interface ReceiptGasLine {
  readonly block: number;
  readonly txIndex: number;
  readonly tx: string;
  readonly account: string;
  readonly roles: readonly GasRole[];
  readonly status: number;
  readonly gasUsed: string;
  readonly effectiveGasPrice: string;
  readonly fee: string;
  readonly usdg: string | null;
}

/** Totals of one asset, in its base units and in USDG base units (of the priced lines). */
export interface ReceiptAssetTotals {
  readonly asset: string;
  readonly decimals: number;
  readonly spent: string;
  /** What each operator wallet spent of it (wallets that spent none are left out). */
  readonly spentBy: Readonly<Record<string, string>>;
  readonly burned: string;
  readonly burnedByOperators: string;
  /** Gas fees paid in this asset (only ETH, in wei). */
  readonly gas: string;
  readonly usdg: { readonly spent: string; readonly burned: string; readonly gas: string };
  readonly unpriced: number;
}

/** The sealed final receipt: every amount is a decimal string of base units or wei. */
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
  /** The project token, whose burns are counted whoever sends them. */
  readonly token: string | null;
  readonly operators: readonly string[];
  readonly keeper: string | null;
  readonly settler: string | null;
  readonly burnAddresses: readonly string[];
  readonly methods: typeof RECEIPT_METHODS;
  readonly pricing: ReceiptPricing | null;
  /** Out of an operator wallet to anyone but another operator wallet or a burn address. */
  readonly spends: readonly ReceiptLine[];
  /** To a burn address: the project token's from anyone, any other asset's from an operator. */
  readonly burns: readonly ReceiptLine[];
  readonly gas: readonly ReceiptGasLine[];
  readonly assets: readonly ReceiptAssetTotals[];
  readonly totals: {
    readonly usdg: {
      readonly spent: string;
      readonly burned: string;
      readonly gas: string;
      readonly all: string;
    };
    readonly lines: number;
    readonly unpriced: number;
  };
}

export interface ReceiptInput {
  readonly chainId: number;
  readonly range: ReceiptDocument["range"];
  readonly token: string | null;
  readonly operators: readonly string[];
  readonly keeper: string | null;
  readonly settler: string | null;
  readonly pricing: ReceiptPricing | null;
  readonly transfers: readonly ChainTransfer[];
  readonly nativeSends: readonly ChainNativeSend[];
  readonly gasTxs: readonly ChainGasTx[];
  /** Decimals of every ERC-20 asset that appears (ETH is 18). */
  readonly decimals: Readonly<Record<string, number>>;
  /** USDG per whole asset (18 decimals) at `block`'s time, or null when the oracle has none. */
  readonly price: (asset: string, block: number) => bigint | null;
}

type Ordered = { block: number; txIndex: number; logIndex: number | null };
const byChainOrder = (a: Ordered, b: Ordered) =>
  a.block - b.block || a.txIndex - b.txIndex || (a.logIndex ?? -1) - (b.logIndex ?? -1);

const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);
const lower = (a: string | null) => a?.toLowerCase() ?? null;

/** A value in USDG base units: amount × price18 × 10^usdgDecimals / 10^(decimals + 18), floored. */
export function usdgValue(amount: bigint, decimals: number, price18: bigint, usdgDecimals: number): bigint {
  return (amount * price18 * 10n ** BigInt(usdgDecimals)) / 10n ** BigInt(decimals + 18);
}

/**
 * Assembles the receipt from what the chain answered, whatever order it came in: lines in chain
 * order (each log and each transaction once), addresses lowercase, operators sorted, amounts as
 * decimal strings, totals per asset and in USDG. Same chain data, same document, same seal.
 */
export function receiptDocument(input: ReceiptInput): ReceiptDocument {
  const operators = [...new Set(input.operators.map((a) => a.toLowerCase()))].sort();
  const isOperator = new Set(operators);
  const isBurn = new Set(BURN_ADDRESSES);
  const pricing = input.pricing && {
    ...input.pricing,
    oracle: input.pricing.oracle.toLowerCase(),
    usdg: input.pricing.usdg.toLowerCase(),
    eth: lower(input.pricing.eth),
  };
  const decimalsOf = (asset: string): number => {
    const d = asset === NATIVE ? 18 : input.decimals[asset];
    if (d === undefined) throw new Error(`no decimals for ${asset}`);
    return d;
  };
  const inUsdg = (asset: string, amount: bigint, block: number): bigint | null => {
    if (!pricing) return null;
    const priced = asset === NATIVE ? pricing.eth : asset;
    if (priced === null) return null;
    const price18 = priced === pricing.usdg ? 10n ** 18n : input.price(priced, block);
    return price18 === null ? null : usdgValue(amount, decimalsOf(asset), price18, pricing.usdgDecimals);
  };

  const unique = new Map<string, ReceiptLine & { raw: bigint; value: bigint | null }>();
  const add = (t: Omit<ReceiptLine, "amount" | "usdg" | "asset"> & { asset: string; raw: bigint }) => {
    const asset = t.asset.toLowerCase();
    const value = inUsdg(asset, t.raw, t.block);
    const line = {
      ...t,
      tx: t.tx.toLowerCase(),
      asset,
      from: t.from.toLowerCase(),
      to: t.to.toLowerCase(),
      amount: t.raw.toString(),
      usdg: value?.toString() ?? null,
      value,
    };
    unique.set(`${line.tx}:${line.logIndex ?? "value"}`, line);
  };
  for (const t of input.transfers) add({ ...t, raw: t.amount });
  for (const t of input.nativeSends) add({ ...t, logIndex: null, asset: NATIVE, raw: t.amount });
  const lines = [...unique.values()].sort(byChainOrder);
  const burns = lines.filter((t) => isBurn.has(t.to));
  const spends = lines.filter((t) => isOperator.has(t.from) && !isOperator.has(t.to) && !isBurn.has(t.to));

  const keeper = lower(input.keeper);
  const settler = lower(input.settler);
  const rolesOf = (account: string): GasRole[] => [
    ...(isOperator.has(account) ? (["operator"] as const) : []),
    ...(account === keeper ? (["keeper"] as const) : []),
    ...(account === settler ? (["settler"] as const) : []),
  ];
  const gasTxs = [...new Map(input.gasTxs.map((t) => [t.tx.toLowerCase(), t])).values()]
    .map((t) => ({ ...t, fee: t.gasUsed * t.effectiveGasPrice, logIndex: null }))
    .sort(byChainOrder);
  const gas = gasTxs.map((t) => {
    const value = inUsdg(NATIVE, t.fee, t.block);
    return {
      line: {
        block: t.block,
        txIndex: t.txIndex,
        tx: t.tx.toLowerCase(),
        account: t.from.toLowerCase(),
        roles: rolesOf(t.from.toLowerCase()),
        status: t.status,
        gasUsed: t.gasUsed.toString(),
        effectiveGasPrice: t.effectiveGasPrice.toString(),
        fee: t.fee.toString(),
        usdg: value?.toString() ?? null,
      },
      fee: t.fee,
      value,
    };
  });

  const assetNames = [...new Set([...lines.map((t) => t.asset), ...(gas.length > 0 ? [NATIVE] : [])])].sort();
  const priced = (values: readonly (bigint | null)[]) => sum(values.filter((v): v is bigint => v !== null));
  const assets = assetNames.map((asset): ReceiptAssetTotals => {
    const spent = spends.filter((t) => t.asset === asset);
    const burned = burns.filter((t) => t.asset === asset);
    const paid = asset === NATIVE ? gas : [];
    const values = [...spent, ...burned, ...paid].map((t) => t.value);
    const spentBy: Record<string, string> = {};
    for (const op of operators) {
      const total = sum(spent.filter((t) => t.from === op).map((t) => t.raw));
      if (total > 0n) spentBy[op] = total.toString();
    }
    return {
      asset,
      decimals: decimalsOf(asset),
      spent: sum(spent.map((t) => t.raw)).toString(),
      spentBy,
      burned: sum(burned.map((t) => t.raw)).toString(),
      burnedByOperators: sum(burned.filter((t) => isOperator.has(t.from)).map((t) => t.raw)).toString(),
      gas: sum(paid.map((t) => t.fee)).toString(),
      usdg: {
        spent: priced(spent.map((t) => t.value)).toString(),
        burned: priced(burned.map((t) => t.value)).toString(),
        gas: priced(paid.map((t) => t.value)).toString(),
      },
      unpriced: values.filter((v) => v === null).length,
    };
  });
  const usdg = {
    spent: priced(spends.map((t) => t.value)),
    burned: priced(burns.map((t) => t.value)),
    gas: priced(gas.map((t) => t.value)),
  };
  const strip = ({ raw: _raw, value: _value, ...line }: ReceiptLine & { raw: bigint; value: unknown }) =>
    line;
  const all = [...spends, ...burns, ...gas];
  return {
    format: RECEIPT_FORMAT,
    chainId: input.chainId,
    range: input.range,
    token: lower(input.token),
    operators,
    keeper,
    settler,
    burnAddresses: [...BURN_ADDRESSES],
    methods: RECEIPT_METHODS,
    pricing,
    spends: spends.map(strip),
    burns: burns.map(strip),
    gas: gas.map((g) => g.line),
    assets,
    totals: {
      usdg: {
        spent: usdg.spent.toString(),
        burned: usdg.burned.toString(),
        gas: usdg.gas.toString(),
        all: (usdg.spent + usdg.burned + usdg.gas).toString(),
      },
      lines: all.length,
      unpriced: all.filter((t) => t.value === null).length,
    },
  };
}
