import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Interface } from "ethers";
import { seal } from "@augur/scorer";
import { registryHeadChecker } from "./registry";

const REGISTRY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const abi = new Interface([
  "function verifyInclusion(bytes32 seal, uint64 leafIndex, uint64 treeSize, bytes32[] proof) view returns (bool)",
]);

describe("registryHeadChecker", () => {
  let server: Server;
  let url = "";
  const calls: { to: string; args: unknown[] }[] = [];
  before(async () => {
    // A stub JSON-RPC node: answers eth_chainId, and eth_call with `true` only for leaf 3 of 8.
    server = createServer((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => {
        const requests = [JSON.parse(text)].flat() as { id: number; method: string; params: unknown[] }[];
        const answers = requests.map(({ id, method, params }) => {
          if (method === "eth_chainId") return { jsonrpc: "2.0", id, result: "0x7a69" };
          const { to, data } = params[0] as { to: string; data: string };
          const args = [...abi.decodeFunctionData("verifyInclusion", data)];
          calls.push({ to, args });
          const ok = args[1] === 3n && args[2] === 8n;
          return { jsonrpc: "2.0", id, result: abi.encodeFunctionResult("verifyInclusion", [ok]) };
        });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(Array.isArray(JSON.parse(text)) ? answers : answers[0]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("calls AnchorRegistry.verifyInclusion(seal, leafIndex, treeSize, proof) and returns its answer", async () => {
    const checker = registryHeadChecker(url, REGISTRY);
    const s = seal({ leaf: 3 });
    const proof = [seal({ p: 1 }), seal({ p: 2 })];
    expect(await checker.verifyInclusion(s, 3, 8, proof)).to.equal(true);
    expect(await checker.verifyInclusion(s, 4, 8, proof)).to.equal(false);
    expect(calls[0]!.to.toLowerCase()).to.equal(REGISTRY.toLowerCase());
    expect(calls[0]!.args).to.deep.equal([s, 3n, 8n, proof]);
  });
});
