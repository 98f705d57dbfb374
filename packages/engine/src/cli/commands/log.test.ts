import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  EMPTY_ROOT,
  MerkleLog,
  merkleRoot,
  seal,
  verifyConsistency,
  verifyInclusion,
  type ConsistencyProof,
  type Hex32,
  type InclusionProof,
} from "@augur/scorer";
import { main } from "../main";
import { fakeIo } from "../../../test-support/cli/testing";
import { command } from "./log";

const seals: Hex32[] = Array.from({ length: 13 }, (_, i) => seal({ record: i }));
const text = seals.join("\n") + "\n";

async function run(argv: string[], input = text) {
  const io = fakeIo(input);
  const code = await main(["log", ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

describe("augur log", () => {
  const dir = mkdtempSync(join(tmpdir(), "augur-log-"));
  const file = join(dir, "seals.txt");
  writeFileSync(file, text);

  describe("root", () => {
    it("prints the RFC 6962 root of the seals on stdin", async () => {
      const io = fakeIo(text);
      expect(await command.run(["root"], io)).to.equal(0);
      expect(io.out()).to.equal(`${merkleRoot(seals)}\n`);
    });

    it("reads a file, tolerating CRLF, spaces, uppercase hex and no final newline", async () => {
      writeFileSync(join(dir, "crlf.txt"), seals.map((s) => ` 0x${s.slice(2).toUpperCase()}\r`).join("\n"));
      expect(await run(["root", join(dir, "crlf.txt")], "")).to.deep.equal({
        code: 0,
        out: `${merkleRoot(seals)}\n`,
        err: "",
      });
    });

    it("prints sha256 of the empty string for no seals", async () => {
      expect((await run(["root"], "")).out).to.equal(`${EMPTY_ROOT}\n`);
    });

    it("names the line of a bad seal: exit 1, one line on stderr, nothing on stdout", async () => {
      const bad = [...seals.slice(0, 4), "0x1234", ...seals.slice(4)].join("\n");
      expect(await run(["root"], bad)).to.deep.equal({
        code: 1,
        out: "",
        err: 'augur log: line 5: "0x1234" is not 0x followed by 64 hex digits\n',
      });
      const blank = [...seals.slice(0, 2), "", ...seals.slice(2)].join("\n");
      expect((await run(["root"], blank)).err).to.equal(
        'augur log: line 3: "" is not 0x followed by 64 hex digits\n',
      );
    });
  });

  describe("prove", () => {
    /** The shape GET /api/v1/anchors/leaves/:seal serves, less the chain fields of `anchor`. */
    interface Leaf {
      seal: Hex32;
      leafIndex: number;
      anchor: { treeSize: number; root: Hex32 };
      proof: { leafIndex: number; treeSize: number; hashes: Hex32[] };
    }
    const asProof = (leaf: Leaf): InclusionProof => ({
      leafIndex: leaf.proof.leafIndex,
      treeSize: leaf.proof.treeSize,
      root: leaf.anchor.root,
      proof: leaf.proof.hashes,
    });

    it("prints the API's leaf shape { seal, leafIndex, anchor: { treeSize, root }, proof: { leafIndex, treeSize, hashes } }, which verifies", async () => {
      const { code, out } = await run(["prove", "--index", "6", file]);
      expect(code).to.equal(0);
      const leaf = JSON.parse(out) as Leaf;
      expect(Object.keys(leaf)).to.deep.equal(["seal", "leafIndex", "anchor", "proof"]);
      expect(Object.keys(leaf.proof)).to.deep.equal(["leafIndex", "treeSize", "hashes"]);
      expect(leaf.seal).to.equal(seals[6]);
      expect(asProof(leaf)).to.deep.equal(new MerkleLog(seals).inclusionProof(6));
      expect(verifyInclusion(seals[6]!, asProof(leaf))).to.equal(true);
    });

    it("--size proves against an older tree", async () => {
      const leaf = JSON.parse((await run(["prove", "--index", "2", "--size", "5"])).out) as Leaf;
      expect([leaf.anchor.treeSize, leaf.anchor.root]).to.deep.equal([5, merkleRoot(seals.slice(0, 5))]);
      expect(verifyInclusion(seals[2]!, asProof(leaf))).to.equal(true);
    });

    it("index out of range, or a size beyond the input: exit 1 with the reason", async () => {
      expect(await run(["prove", "--index", "13"])).to.deep.equal({
        code: 1,
        out: "",
        err: "augur log: leaf index 13 is outside the tree of 13 leaves\n",
      });
      expect((await run(["prove", "--index", "4", "--size", "4"])).err).to.equal(
        "augur log: leaf index 4 is outside the tree of 4 leaves\n",
      );
      expect((await run(["prove", "--index", "0", "--size", "14"])).err).to.equal(
        "augur log: --size 14 is beyond the 13 seals given\n",
      );
    });

    it("a missing or malformed --index is a usage error (exit 2)", async () => {
      expect(await run(["prove"])).to.deep.equal({
        code: 2,
        out: "",
        err: "augur log: prove needs --index I\n",
      });
      expect((await run(["prove", "--index", "-1"])).code).to.equal(2);
      expect((await run(["prove", "--index", "1.5"])).err).to.equal(
        'augur log: --index must be a non-negative integer, got "1.5"\n',
      );
    });
  });

  describe("consistency", () => {
    it("prints { fromSize, toSize, fromRoot, toRoot, proof } that verifies", async () => {
      const { code, out } = await run(["consistency", "--from", "5", file]);
      expect(code).to.equal(0);
      const proof = JSON.parse(out) as ConsistencyProof;
      expect(Object.keys(proof)).to.deep.equal(["fromSize", "toSize", "fromRoot", "toRoot", "proof"]);
      expect(proof).to.deep.equal(new MerkleLog(seals).consistencyProof(5));
      expect(verifyConsistency(proof)).to.equal(true);
    });

    it("--to picks an older new size", async () => {
      const proof = JSON.parse(
        (await run(["consistency", "--from", "3", "--to", "8"])).out,
      ) as ConsistencyProof;
      expect([proof.fromSize, proof.toSize, proof.toRoot]).to.deep.equal([
        3,
        8,
        merkleRoot(seals.slice(0, 8)),
      ]);
      expect(verifyConsistency(proof)).to.equal(true);
    });

    it("backwards sizes exit 1; a missing --from exits 2", async () => {
      expect((await run(["consistency", "--from", "9", "--to", "4"])).err).to.equal(
        "augur log: fromSize 9 is above toSize 4\n",
      );
      expect((await run(["consistency"])).code).to.equal(2);
    });
  });

  it("every size and index flag refuses a non-integer (2.5 is not leaf 2) with exit 2 and one line", async () => {
    for (const [args, flag, value] of [
      [["prove", "--index", "2", "--size", "5.5"], "--size", "5.5"],
      [["prove", "--index", "2.0"], "--index", "2.0"],
      [["prove", "--index", "1e1"], "--index", "1e1"],
      [["consistency", "--from", "2.5"], "--from", "2.5"],
      [["consistency", "--from", "2", "--to", "4.5"], "--to", "4.5"],
      [["consistency", "--from", "0x2"], "--from", "0x2"],
    ] as const) {
      expect(await run([...args, file]), args.join(" ")).to.deep.equal({
        code: 2,
        out: "",
        err: `augur log: ${flag} must be a non-negative integer, got "${value}"\n`,
      });
    }
  });

  it("an unknown or missing subcommand is a usage error", async () => {
    expect((await run(["graft"])).err).to.equal(
      "augur log: unknown subcommand 'graft' (root, prove, consistency)\n",
    );
    expect((await run([])).code).to.equal(2);
  });

  it("the real `npx augur` binary: seal, root and prove from the repository root", function () {
    this.timeout(60_000);
    const root = join(__dirname, "..", "..", "..", "..", "..");
    const augur = (args: string[], input?: string) =>
      spawnSync("npx", ["--no-install", "augur", ...args], { cwd: root, input, encoding: "utf8" });
    const sealed = augur(["seal"], '{"b":2,"a":1}');
    expect([sealed.status, sealed.stdout]).to.deep.equal([0, `${seal({ a: 1, b: 2 })}\n`]);
    const rooted = augur(["log", "root", file]);
    expect([rooted.status, rooted.stdout]).to.deep.equal([0, `${merkleRoot(seals)}\n`]);
    const bad = augur(["log", "prove", "--index", "99", file]);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.equal("augur log: leaf index 99 is outside the tree of 13 leaves\n");
  });
});
