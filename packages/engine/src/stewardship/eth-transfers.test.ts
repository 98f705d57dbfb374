import { expect } from "chai";
import type { ChainReader } from "../indexer/follow";
import { readNativeTransfers } from "./eth-transfers";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const H = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const tx = (n: number, from: number, to: number | null, value: bigint) => ({
  hash: H(n),
  from: a(from),
  to: to === null ? null : a(to),
  value: `0x${value.toString(16)}`,
});

/** A chain of blocks 1–3 answering eth_getBlockByNumber and eth_getTransactionReceipt, recording what was asked. */
function fakeChain() {
  const blocks: Record<number, ReturnType<typeof tx>[]> = {
    1: [tx(1, 0xa, 0xb, 5n), tx(2, 0xa, 0xc, 0n)], // a value; none (never asked for a receipt)
    2: [tx(3, 0xa, 0xd, 7n), tx(4, 0xa, null, 9n)], // reverted; a contract creation (left out)
    3: [tx(5, 0xe, 0xe, 3n), tx(6, 0xe, 0xf, 1n)], // to itself (left out); a value
  };
  const receipts: string[] = [];
  const provider = {
    async send(method: string, params: unknown[]) {
      if (method === "eth_getBlockByNumber") {
        const n = Number(params[0]);
        if (!blocks[n]) return null;
        return {
          number: `0x${n.toString(16)}`,
          hash: H(1000 + n),
          timestamp: `0x${(1_800_000_000 + n).toString(16)}`,
          transactions: blocks[n],
        };
      }
      if (method === "eth_getTransactionReceipt") {
        const hash = String(params[0]);
        receipts.push(hash);
        return { status: hash === H(3) ? "0x0" : "0x1" };
      }
      throw new Error(`unexpected ${method}`);
    },
  } as unknown as ChainReader;
  return { provider, receipts };
}

describe("stewardship: native ETH transfers from the blocks' transactions", () => {
  it("keeps each successful value from one address to another, placed before its transaction's logs", async () => {
    const { provider, receipts } = fakeChain();
    const moved = await readNativeTransfers(provider, 1, 3);
    expect(
      moved.map((t) => [t.blockNumber, t.transactionHash, t.from, t.to, t.value, t.index]),
    ).to.deep.equal([
      [1, H(1), a(0xa), a(0xb), 5n, -1],
      [3, H(6), a(0xe), a(0xf), 1n, -1],
    ]);
    expect(moved[0]).to.include({ blockHash: H(1001), blockTimestamp: 1_800_000_001 });
    // Receipts only where a value moved to another address: the reverted one is dropped by its status.
    expect(receipts).to.deep.equal([H(1), H(3), H(6)]);
  });

  it("refuses a range the endpoint cannot serve, rather than reading a gap as no transfers", async () => {
    const { provider } = fakeChain();
    const error = await readNativeTransfers(provider, 2, 4).catch((e: unknown) => e);
    expect((error as Error).message).to.equal("block 4 is not available from the RPC endpoint");
  });
});
