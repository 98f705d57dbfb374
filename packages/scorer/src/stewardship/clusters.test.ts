import { expect } from "chai";
import type { TokenTransfer } from "./chain-data";
import { TransferGraph } from "./clusters";

const send = (from: string, to: string): TokenTransfer => ({
  tx: "0x01",
  logIndex: 0,
  time: 0,
  from,
  to,
  amount: 1n,
});

describe("stewardship clusters: TransferGraph", () => {
  it("links addresses by plain transfers; the smallest address represents each component", () => {
    // d–b, c–e, a–c (so {a,c,e}); b–d again; f alone; g–pool skipped. Links go both ways.
    const graph = new TransferGraph(
      [send("d", "b"), send("c", "e"), send("a", "c"), send("b", "d"), send("g", "pool")],
      new Set(["pool"]),
    );
    const roots = Object.fromEntries(
      ["a", "b", "c", "d", "e", "f", "g", "pool"].map((x) => [x, graph.root(x)]),
    );
    expect(roots).to.deep.equal({ a: "a", b: "b", c: "a", d: "b", e: "a", f: "f", g: "g", pool: "pool" });
    // A second look (after path compression) gives the same answers.
    expect(["e", "c", "d"].map((x) => graph.root(x))).to.deep.equal(["a", "a", "b"]);
  });

  it("keeps earlier links when an address already linked is linked again", () => {
    // z–y makes {y,z}; then y–x and z–w must join the same component, not split y or z off.
    const graph = new TransferGraph([send("z", "y"), send("y", "x"), send("z", "w")], new Set());
    expect(["w", "x", "y", "z"].map((x) => graph.root(x))).to.deep.equal(["w", "w", "w", "w"]);
  });

  it("skips a transfer if either side is skipped", () => {
    const graph = new TransferGraph(
      [send("a", "pool"), send("pool", "b"), send("c", "x")],
      new Set(["pool", "x"]),
    );
    expect(["a", "b", "c", "x", "pool"].map((x) => graph.root(x))).to.deep.equal([
      "a",
      "b",
      "c",
      "x",
      "pool",
    ]);
  });

  it("groups items by component: clusters sorted, groups sorted by first address, items in input order", () => {
    const graph = new TransferGraph([send("q", "m"), send("m", "k"), send("t", "s")], new Set());
    const items = [
      { id: 1, touches: ["t"] },
      { id: 2, touches: ["q", "m"] },
      { id: 3, touches: ["z"] },
      { id: 4, touches: ["s", "t"] },
      { id: 5, touches: ["k"] },
      { id: 6, touches: ["c"] },
    ];
    const groups = graph.groupBy(items, (item) => item.touches);
    expect(groups.map((g) => ({ cluster: g.cluster, ids: g.items.map((i) => i.id) }))).to.deep.equal([
      { cluster: ["c"], ids: [6] },
      { cluster: ["k", "m", "q"], ids: [2, 5] },
      { cluster: ["s", "t"], ids: [1, 4] },
      { cluster: ["z"], ids: [3] },
    ]);
    expect(graph.groupBy([], (item: { touches: string[] }) => item.touches)).to.deep.equal([]);
  });
});
