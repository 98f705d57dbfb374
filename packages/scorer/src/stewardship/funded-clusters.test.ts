import { expect } from "chai";
import type { FundingTransfer, PoolSwap, TokenTransfer } from "./chain-data";
import { fundedClusters, fundingSources } from "./funded-clusters";

const addr = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(40, "0")}`;
const POOL = addr("pool");
let n = 0;
const tx = () => `0x${(++n).toString(16).padStart(64, "0")}`;
const send = (from: string, to: string, time: number): TokenTransfer => ({
  tx: tx(),
  logIndex: 0,
  time,
  from: addr(from),
  to: addr(to),
  amount: 1n,
});
const swap = (taker: string, side: "buy" | "sell", tokens: bigint): PoolSwap => ({
  tx: tx(),
  logIndex: 1,
  time: 100,
  pool: POOL,
  taker: addr(taker),
  side,
  tokens,
  usd: 1,
});
const skip = new Set([POOL]);

describe("stewardship (c): clusters funded from one source", () => {
  it("a source is the sender of the first plain transfer received; pools never fund", () => {
    const sources = fundingSources(
      [{ ...send("pool", "a", 1), from: POOL }, send("s", "a", 2), send("t", "a", 3)],
      skip,
    );
    expect(sources.get(addr("a"))).to.equal(addr("s"));
  });

  it("flags the cluster exactly below 20 % net over gross", () => {
    const sources = fundingSources([send("s", "a", 1), send("s", "b", 1)], skip);
    // Net 40 of gross 200 is 20 %: not under, not flagged. Net 39 of 199 is 19.6 %: flagged.
    expect(fundedClusters([swap("a", "buy", 120n), swap("b", "sell", 80n)], sources, skip)).to.deep.equal([]);
    const [flagged] = fundedClusters([swap("a", "buy", 119n), swap("b", "sell", 80n)], sources, skip);
    expect(flagged).to.include({ source: addr("s"), bought: 119n, sold: 80n });
    expect(flagged!.takers).to.deep.equal([addr("a"), addr("b")]);
  });

  it("needs two funded takers: one wallet trading both ways is not a cluster", () => {
    const sources = fundingSources([send("s", "a", 1)], skip);
    expect(fundedClusters([swap("a", "buy", 100n), swap("a", "sell", 100n)], sources, skip)).to.deep.equal(
      [],
    );
  });

  it("counts the source's own swaps into its cluster", () => {
    const sources = fundingSources([send("s", "a", 1), send("s", "b", 1)], skip);
    // a and b only buy (net 100 %), but the source sells as much: the cluster nets zero.
    const swaps = [swap("a", "buy", 50n), swap("b", "buy", 50n), swap("s", "sell", 100n)];
    const [flagged] = fundedClusters(swaps, sources, skip);
    expect(flagged!.swaps).to.have.length(3);
  });

  it("a transfer of nothing, to oneself or to an excluded address funds nothing", () => {
    const sources = fundingSources(
      [
        send("a", "a", 1),
        { ...send("z", "b", 1), amount: 0n },
        { ...send("s", "pool", 1), to: POOL },
        send("s", "a", 2),
        send("s", "b", 2),
      ],
      skip,
    );
    expect([...sources]).to.deep.equal([
      [addr("a"), addr("s")],
      [addr("b"), addr("s")],
    ]);
  });

  it("the first funding in chain order wins, whichever list it is in", () => {
    const eth: FundingTransfer = { ...send("s", "a", 3), asset: "eth", logIndex: -1 };
    expect(fundingSources([send("t", "a", 5)], skip, [eth]).get(addr("a"))).to.equal(addr("s"));
  });

  it("net is |bought − sold| either way round; takers are listed sorted", () => {
    const sources = fundingSources([send("s", "a", 1), send("s", "b", 1)], skip);
    // Sold 120, bought 80: net 40 of 200 is 20 %, not flagged; sold 119: flagged.
    expect(fundedClusters([swap("b", "buy", 80n), swap("a", "sell", 120n)], sources, skip)).to.deep.equal([]);
    const [flagged] = fundedClusters([swap("b", "buy", 80n), swap("a", "sell", 119n)], sources, skip);
    expect(flagged).to.include({ bought: 80n, sold: 119n });
    expect(flagged!.takers).to.deep.equal([addr("a"), addr("b")]);
  });

  it("counts every own swap of a trading source, none of an excluded one", () => {
    const sources = fundingSources([send("s", "a", 1), send("s", "b", 1)], skip);
    const swaps = [
      swap("a", "buy", 50n),
      swap("b", "buy", 50n),
      swap("s", "sell", 60n),
      swap("s", "sell", 40n),
    ];
    expect(fundedClusters(swaps, sources, skip)[0]).to.include({ bought: 100n, sold: 100n });
    // Funded from an excluded address, a and b net zero: the source's own sells are left out.
    const excluded = new Set([POOL, addr("s")]);
    const washing = [swap("a", "buy", 50n), swap("b", "sell", 50n), ...swaps.slice(2)];
    expect(fundedClusters(washing, sources, excluded)).to.deep.equal([
      {
        source: addr("s"),
        takers: [addr("a"), addr("b")],
        bought: 50n,
        sold: 50n,
        swaps: washing.slice(0, 2),
      },
    ]);
  });
});
