import { expect } from "chai";
import fc from "fast-check";
import { AbiCoder } from "ethers";
import { erc20 } from "../chain/abi/stewardship";
import { multicall3 } from "../chain/abi/multicall3";
import { BalanceReadError, MULTICALL3, RpcMeasureChain, type MeasureProvider } from "./chain";

const coder = AbiCoder.defaultAbiCoder();
const hex40 = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
/** A balance no two (token, owner) pairs share. */
const balanceOf = (token: string, owner: string) => BigInt(token) * 1_000_000n + BigInt(owner);

/**
 * A node in memory answering `balanceOf` eth_calls, singly or through aggregate3, after a
 * turn of the event loop; it counts requests in flight and fails the ones `fails` picks.
 */
class FakeNode implements MeasureProvider {
  inFlight = 0;
  most = 0;
  requests = 0;
  constructor(private readonly fails: (request: number) => boolean = () => false) {}
  async send(method: string, params: unknown[]): Promise<unknown> {
    expect(method).to.equal("eth_call");
    const request = this.requests++;
    this.inFlight += 1;
    this.most = Math.max(this.most, this.inFlight);
    try {
      await new Promise((done) => setImmediate(done));
      if (this.fails(request)) throw new Error(`node refused request ${request}`);
      const [{ to, data }] = params as [{ to: string; data: string }];
      if (to !== MULTICALL3) return coder.encode(["uint256"], [balanceOf(to, `0x${data.slice(-40)}`)]);
      const [calls] = multicall3.decodeFunctionData("aggregate3", data) as unknown as [
        Array<{ target: string; callData: string }>,
      ];
      return multicall3.encodeFunctionResult("aggregate3", [
        calls.map((c) => ({
          success: true,
          returnData: coder.encode(["uint256"], [balanceOf(c.target, `0x${c.callData.slice(-40)}`)]),
        })),
      ]);
    } finally {
      this.inFlight -= 1;
    }
  }
  getBlockNumber = () => Promise.reject(new Error("not used"));
  getBlock = () => Promise.reject(new Error("not used"));
  getLogs = () => Promise.reject(new Error("not used"));
}

describe("RpcMeasureChain.readBalances", () => {
  it("answers result[w][t] = balanceOf(wallet w) on token t, through aggregate3 or single calls, with at most `concurrency` requests in flight", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (walletCount, tokenCount, size, concurrency, aggregated) => {
          const wallets = Array.from({ length: walletCount }, (_, i) => hex40(i + 1));
          const tokens = Array.from({ length: tokenCount }, (_, i) => hex40(0xa000 + i));
          const node = new FakeNode();
          const chain = new RpcMeasureChain(node, undefined, aggregated ? MULTICALL3 : undefined, {
            callsPerAggregate: size,
            callsPerBatch: size,
            concurrency,
          });
          const got = await chain.readBalances(7, wallets, tokens);
          expect(got).to.deep.equal(wallets.map((w) => tokens.map((t) => balanceOf(t, w))));
          const calls = walletCount * tokenCount;
          expect(node.requests).to.equal(aggregated ? Math.ceil(calls / size) : calls);
          // Single calls: a chunk's calls go out together, so `size` × `concurrency` at most.
          expect(node.most).to.be.at.most(aggregated ? concurrency : concurrency * size);
        },
      ),
    );
  });

  it("names the calls of a failed request in a typed error, at the block read", async () => {
    const wallets = Array.from({ length: 10 }, (_, i) => hex40(i + 1));
    const tokens = [hex40(0xa000), hex40(0xa001)];
    // 20 calls in aggregates of 6: requests 0..3 carry calls 0-5, 6-11, 12-17, 18-19.
    const chain = new RpcMeasureChain(new FakeNode((r) => r === 2), undefined, MULTICALL3, {
      callsPerAggregate: 6,
      concurrency: 1,
    });
    const error = await chain.readBalances(42, wallets, tokens).then(
      () => expect.fail("a failed request was not reported"),
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(BalanceReadError);
    expect(error).to.include({ code: "MEASURE_BALANCE_READ" });
    expect((error as BalanceReadError).message).to.equal(
      "reading balances at block 42 failed for calls 12..17: node refused request 2",
    );
  });

  it("refuses a pool size below one before sending anything", async () => {
    const node = new FakeNode();
    const chain = new RpcMeasureChain(node, undefined, MULTICALL3, { concurrency: 0 });
    await chain.readBalances(1, [hex40(1)], [hex40(2)]).then(
      () => expect.fail("concurrency 0 accepted"),
      (e: unknown) => expect(e).to.be.instanceOf(RangeError),
    );
    expect(node.requests).to.equal(0);
  });
});

describe("RpcMeasureChain.tokenTransfers", () => {
  const TRANSFER = erc20.getEvent("Transfer")!.topicHash;
  const word = (n: bigint | string | number) => `0x${BigInt(n).toString(16).padStart(64, "0")}`;
  /** A node whose logs are one Transfer per queried block range's first block, answered in reverse. */
  class LogNode extends FakeNode {
    ranges: Array<[number, number]> = [];
    logs = (filter: { fromBlock: string; toBlock: string }) => {
      const [from, to] = [Number(filter.fromBlock), Number(filter.toBlock)];
      this.ranges.push([from, to]);
      const log = (block: number, index: number) => ({
        address: hex40(0xa000),
        topics: [TRANSFER, word(hex40(block)), word(hex40(0xbeef))],
        data: word(BigInt(block) * 10n),
        transactionHash: word(block),
        logIndex: `0x${index.toString(16)}`,
        blockNumber: `0x${block.toString(16)}`,
      });
      return [log(to, 1), log(from, 0), log(from, 0)];
    };
    override async send(method: string, params: unknown[]): Promise<unknown> {
      expect(method).to.equal("eth_getLogs");
      const [filter] = params as [{ fromBlock: string; toBlock: string; topics: unknown }];
      expect(filter.topics).to.deep.equal([TRANSFER]);
      return this.logs(filter);
    }
  }

  it("reads every Transfer of the tokens by block range (blocksPerLogQuery), once each, in chain order", async () => {
    const node = new LogNode();
    const chain = new RpcMeasureChain(node, undefined, MULTICALL3, { blocksPerLogQuery: 2_000 });
    const logs = await chain.tokenTransfers([hex40(0xa000)], 0, 4_500);
    expect(node.ranges.sort((a, b) => a[0] - b[0])).to.deep.equal([
      [1, 2_000],
      [2_001, 4_000],
      [4_001, 4_500],
    ]);
    expect(logs.map((l) => l.blockNumber)).to.deep.equal([1, 2_000, 2_001, 4_000, 4_001, 4_500]);
    expect(logs[0]).to.deep.equal({
      token: hex40(0xa000),
      from: hex40(1),
      to: hex40(0xbeef),
      amount: 10n,
      txHash: word(1),
      logIndex: 0,
      blockNumber: 1,
    });
    expect(await chain.tokenTransfers([hex40(0xa000)], 7, 7)).to.deep.equal([]);
  });

  it("refuses a log of a listed token that is not an ERC-20 Transfer (an ERC-721 one has a third topic)", async () => {
    const node = new LogNode();
    node.logs = () => [
      {
        address: hex40(0xa000),
        topics: [TRANSFER, word(1), word(2), word(3)],
        data: "0x",
        transactionHash: word(9),
        logIndex: "0x4",
        blockNumber: "0x9",
      },
    ];
    const error = await new RpcMeasureChain(node)
      .tokenTransfers([hex40(0xa000)], 8, 9)
      .catch((e: Error) => e);
    expect((error as Error).message).to.equal(`${hex40(0xa000)} log ${word(9)}#4 is not an ERC-20 Transfer`);
  });
});
