import { expect } from "chai";
import fc from "fast-check";
import { InvalidInputError } from "../errors";
import { EMPTY_ROOT } from "./hashing";
import { EMPTY_FRONTIER, type MerkleFrontier, MerkleRootBuilder, merkleRoot } from "./root";
import { sealsFor } from "./testing";

describe("MerkleRootBuilder frontier", () => {
  it("property: a builder resumed from its frontier after k leaves gives merkleRoot's root after n", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.nat(), fc.nat(), (n, cut, tag) => {
        const seals = sealsFor(n, tag);
        const k = n === 0 ? 0 : cut % (n + 1);
        const first = new MerkleRootBuilder();
        seals.slice(0, k).forEach((s) => first.addHex(s));
        const frontier = first.frontier();
        expect(frontier.nodes).to.have.length(k.toString(2).replace(/0/g, "").length);
        const resumed = MerkleRootBuilder.fromFrontier(JSON.parse(JSON.stringify(frontier)));
        expect(resumed.root()).to.equal(first.root());
        seals.slice(k).forEach((s) => resumed.addHex(s));
        expect([resumed.size, resumed.root()]).to.deep.equal([n, merkleRoot(seals)]);
      }),
      { numRuns: Math.min(200, Number(process.env.FC_RUNS ?? 1000)) },
    );
  });

  it("refuses a frontier whose nodes do not match its size, naming the field", () => {
    const builder = new MerkleRootBuilder();
    sealsFor(3, 1).forEach((s) => builder.addHex(s));
    const { nodes } = builder.frontier();
    expect(() => MerkleRootBuilder.fromFrontier({ size: 3, nodes: nodes.slice(1) })).to.throw(
      /frontier\.nodes\[1\]/,
    );
    expect(() => MerkleRootBuilder.fromFrontier({ size: 2, nodes })).to.throw(/must hold 1 nodes for size 2/);
    expect(() => MerkleRootBuilder.fromFrontier({ size: -1, nodes: [] })).to.throw(/frontier\.size/);
    expect(() => MerkleRootBuilder.fromFrontier({ size: 1, nodes: ["0x12"] })).to.throw(
      /frontier\.nodes\[0\]/,
    );
  });

  it("says what is wrong and with which value: path, message and details of each refusal", () => {
    const refusal = (frontier: MerkleFrontier) => {
      try {
        MerkleRootBuilder.fromFrontier(frontier);
      } catch (error) {
        expect(error).to.be.instanceOf(InvalidInputError);
        const { path, shortMessage, details } = error as InvalidInputError;
        return { path, shortMessage, details };
      }
      return expect.fail("expected a refusal");
    };
    expect(refusal({ size: 2.5, nodes: [] })).to.deep.equal({
      path: "frontier.size",
      shortMessage: "frontier.size: must be a whole number ≥ 0",
      details: { path: "frontier.size", value: 2.5 },
    });
    expect(refusal({ size: 1, nodes: ["0x12"] })).to.deep.equal({
      path: "frontier.nodes[0]",
      shortMessage: "frontier.nodes[0]: is not 0x followed by 64 hex digits",
      details: { path: "frontier.nodes[0]", value: "0x12" },
    });
    expect(refusal({ size: 0, nodes: [EMPTY_ROOT, EMPTY_ROOT] })).to.deep.equal({
      path: "frontier.nodes",
      shortMessage: "frontier.nodes: must hold 0 nodes for size 0",
      details: { path: "frontier.nodes", value: 2 },
    });
  });

  it("EMPTY_FRONTIER is the empty tree's: size 0, no nodes, the root of nothing", () => {
    expect(EMPTY_FRONTIER).to.deep.equal({ size: 0, nodes: [] });
    expect(MerkleRootBuilder.fromFrontier(EMPTY_FRONTIER).root()).to.equal(EMPTY_ROOT);
    expect(new MerkleRootBuilder().frontier()).to.deep.equal(EMPTY_FRONTIER);
  });
});
