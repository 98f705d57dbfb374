import { Contract, toBeHex, zeroPadValue, type Interface, type JsonRpcProvider, type Log } from "ethers";
import type { Hex32 } from "@augur/scorer";
import type { AnchorReceipt } from "./seam";
import { ANCHORED_TOPIC, ANCHOR_REGISTRY_ABI, anchorRegistry } from "../chain/abi/anchor-registry";

/** The registry's newest head, or size 0 before the first post. */
export interface ChainHead {
  readonly count: number;
  readonly treeSize: number;
  readonly root: Hex32;
}

/** Read-only view of one AnchorRegistry: what is posted, and where. */
export class RegistryReader {
  private readonly contract: Contract;

  constructor(
    private readonly provider: JsonRpcProvider,
    readonly address: string,
    readonly chainId: number,
    /** The block the registry was deployed at (or earlier): event searches start there. */
    private readonly startBlock = 0,
  ) {
    this.contract = new Contract(address, ANCHOR_REGISTRY_ABI, provider);
  }

  async head(): Promise<ChainHead> {
    const count = Number(await this.contract.getFunction("anchorCount").staticCall());
    if (count === 0) return { count, treeSize: 0, root: `0x${"00".repeat(32)}` as Hex32 };
    const latest = (await this.contract.getFunction("latest").staticCall()) as {
      treeSize: bigint;
      root: string;
    };
    return { count, treeSize: Number(latest.treeSize), root: latest.root.toLowerCase() as Hex32 };
  }

  /** The root posted for exactly this size, or undefined. */
  async rootOf(treeSize: number): Promise<Hex32 | undefined> {
    const root = ((await this.contract.getFunction("rootOf").staticCall(treeSize)) as string).toLowerCase();
    return /^0x0{64}$/.test(root) ? undefined : (root as Hex32);
  }

  async indexOf(treeSize: number): Promise<number> {
    return Number(await this.contract.getFunction("indexOf").staticCall(treeSize));
  }

  async blockNumber(): Promise<number> {
    return Number(await this.provider.send("eth_blockNumber", []));
  }

  /**
   * The receipt of head `index` from the transaction that posted it (known from the journal or
   * the indexer): one receipt lookup instead of a log search. Undefined if that transaction did
   * not emit it (e.g. reorganised away).
   */
  async receiptOfTx(
    index: number,
    txHash: string,
  ): Promise<{ receipt: AnchorReceipt; confirmations: number } | undefined> {
    const tx = await this.provider.getTransactionReceipt(txHash);
    const log = tx?.logs.find(
      (l) =>
        l.address.toLowerCase() === this.address.toLowerCase() &&
        l.topics[0] === ANCHORED_TOPIC &&
        BigInt(l.topics[1] ?? "0x") === BigInt(index),
    );
    if (!tx || !log) return undefined;
    return this.describe(index, log);
  }

  /**
   * The receipt of head `index` from its Anchored event, with how many confirmations it has
   * (1 = in the newest block). Undefined if the event is not found (not yet indexed by the node).
   */
  async receiptOf(index: number): Promise<{ receipt: AnchorReceipt; confirmations: number } | undefined> {
    const logs = await this.provider.getLogs({
      address: this.address,
      topics: [ANCHORED_TOPIC, zeroPadValue(toBeHex(index), 32)],
      fromBlock: this.startBlock,
      toBlock: "latest",
    });
    const log = logs[logs.length - 1];
    return log ? this.describe(index, log) : undefined;
  }

  private async describe(
    index: number,
    log: Log,
  ): Promise<{ receipt: AnchorReceipt; confirmations: number } | undefined> {
    const parsed = anchorRegistry.parseLog(log)!;
    const block = await this.provider.getBlock(log.blockHash);
    if (!block) return undefined;
    const latest = await this.blockNumber();
    return {
      confirmations: latest - log.blockNumber + 1,
      receipt: {
        anchorIndex: index,
        treeSize: Number(parsed.args.getValue("treeSize")),
        root: (parsed.args.getValue("root") as string).toLowerCase() as Hex32,
        chainId: this.chainId,
        registry: this.address.toLowerCase(),
        txHash: log.transactionHash.toLowerCase() as Hex32,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash.toLowerCase() as Hex32,
        anchoredAt: block.timestamp,
      },
    };
  }
}

/** The custom error a revert carries, decoded against the registry's ABI (undefined if unknown). */
export function decodeRegistryError(error: unknown): { name: string; args: readonly unknown[] } | undefined {
  return decodeContractError(anchorRegistry, error);
}

/** A revert's custom error, decoded with the contract's interface (undefined: none it knows). */
export function decodeContractError(
  contract: Interface,
  error: unknown,
): { name: string; args: readonly unknown[] } | undefined {
  const data = revertData(error);
  if (!data) return undefined;
  try {
    const decoded = contract.parseError(data);
    return decoded ? { name: decoded.name, args: [...decoded.args] } : undefined;
  } catch {
    return undefined;
  }
}

/** ethers nests the revert data differently per code path; look where it can be. */
function revertData(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const data = (e as { data?: unknown }).data;
    if (typeof data === "string" && /^0x[0-9a-fA-F]{8}/.test(data)) return data;
    queue.push(
      data,
      (e as { error?: unknown }).error,
      (e as { info?: unknown }).info,
      (e as { cause?: unknown }).cause,
    );
  }
  return undefined;
}
