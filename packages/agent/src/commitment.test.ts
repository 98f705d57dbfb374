import { expect } from "chai";
import { keccak256 } from "ethers";
import { buildCommitment, Direction, directionName, parseDirection, randomSalt } from "./commitment";

/** abi.encode of static types is 32-byte words back to back: built here by hand, not by AbiCoder. */
function word(hex: string): string {
  return hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");
}

describe("buildCommitment", () => {
  it("is keccak256 of the eight words abi.encode lays out (chain id, ledger, agent, asset, window, direction, confidence, salt)", () => {
    const scope = {
      chainId: 46630,
      ledger: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      agent: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    };
    const terms = {
      asset: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
      window: 14_400,
      direction: Direction.Down,
      confidenceBps: 6667,
      salt: `0x${"5a".repeat(32)}`,
    };
    const encoded =
      "0x" +
      [
        (46630).toString(16),
        scope.ledger,
        scope.agent,
        terms.asset,
        (14_400).toString(16),
        "2",
        (6667).toString(16),
        terms.salt,
      ]
        .map(word)
        .join("");
    expect(buildCommitment(scope, terms)).to.equal(keccak256(encoded));
  });

  it("binds every field: changing any one changes the commitment", () => {
    const scope = { chainId: 31337n, ledger: `0x${"11".repeat(20)}`, agent: `0x${"22".repeat(20)}` };
    const terms = {
      asset: `0x${"33".repeat(20)}`,
      window: 3600,
      direction: Direction.Up,
      confidenceBps: 7000,
      salt: randomSalt(),
    };
    const base = buildCommitment(scope, terms);
    const variants = [
      buildCommitment({ ...scope, chainId: 4663n }, terms),
      buildCommitment({ ...scope, ledger: `0x${"12".repeat(20)}` }, terms),
      buildCommitment({ ...scope, agent: `0x${"23".repeat(20)}` }, terms),
      buildCommitment(scope, { ...terms, asset: `0x${"34".repeat(20)}` }),
      buildCommitment(scope, { ...terms, window: 3601 }),
      buildCommitment(scope, { ...terms, direction: Direction.Down }),
      buildCommitment(scope, { ...terms, confidenceBps: 7001 }),
      buildCommitment(scope, { ...terms, salt: randomSalt() }),
    ];
    expect(new Set([base, ...variants]).size).to.equal(9);
  });

  it("salts are 32 random bytes, never repeated", () => {
    const salts = new Set(Array.from({ length: 100 }, randomSalt));
    expect(salts.size).to.equal(100);
    for (const salt of salts) expect(salt).to.match(/^0x[0-9a-f]{64}$/);
  });

  it("parses up/down in any case and nothing else", () => {
    expect([parseDirection("UP"), parseDirection(" down "), parseDirection("long")]).to.deep.equal([
      Direction.Up,
      Direction.Down,
      Direction.None,
    ]);
    expect([directionName(1), directionName(2), directionName(0)]).to.deep.equal(["up", "down", "none"]);
  });
});
