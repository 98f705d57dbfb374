import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { seal } from "@augur/scorer";
import { anchorRegistry } from "../chain/abi/anchor-registry";
import { registryHeadChecker } from "./registry";

const REGISTRY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const EMPTY = "0x000000000000000000000000000000000000dEaD";
const OTHER_CONTRACT = "0x9fE46736679d2D9a65F0992F0272bC9E2D3C5cF0";
const UNKNOWN_SIZE = 13n;

interface Rpc {
  id: number;
  method: string;
  params: unknown[];
}

/** A stub JSON-RPC node: a registry where leaf 3 of 8 checks out, an empty address, another contract. */
function answer({ id, method, params }: Rpc): unknown {
  if (method === "eth_getCode") return { jsonrpc: "2.0", id, result: params[0] === EMPTY ? "0x" : "0x6080" };
  const { to, data } = params[0] as { to: string; data: string };
  if (to === OTHER_CONTRACT) return { jsonrpc: "2.0", id, error: { code: 3, message: "execution reverted" } };
  const call = anchorRegistry.parseTransaction({ data })!;
  if (call.name === "anchorCount")
    return { jsonrpc: "2.0", id, result: anchorRegistry.encodeFunctionResult("anchorCount", [2]) };
  calls.push({ to, args: [...call.args] });
  if (call.args[2] === UNKNOWN_SIZE) {
    // Hardhat's shape: the revert data nested in error.data.
    const revert = anchorRegistry.encodeErrorResult("AnchorRegistryUnknownTreeSize", [UNKNOWN_SIZE]);
    return { jsonrpc: "2.0", id, error: { code: -32603, message: "reverted", data: { data: revert } } };
  }
  const ok = call.args[1] === 3n && call.args[2] === 8n;
  return { jsonrpc: "2.0", id, result: anchorRegistry.encodeFunctionResult("verifyInclusion", [ok]) };
}
const calls: { to: string; args: unknown[] }[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("registryHeadChecker", () => {
  let node: Server;
  let hanging: Server;
  let url = "";
  let hangingUrl = "";
  let deadUrl = "";
  const http = { timeoutMs: 2_000 };
  before(async () => {
    node = createServer((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer(JSON.parse(text) as Rpc)));
      });
    });
    url = await listen(node);
    // A stopped node: accepts the connection, never answers.
    hanging = createServer(() => undefined);
    hangingUrl = await listen(hanging);
    const closed = createServer();
    deadUrl = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });
  after(async () => {
    hanging.closeAllConnections();
    await Promise.all([node, hanging].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });

  it("calls AnchorRegistry.verifyInclusion(seal, leafIndex, treeSize, proof) and returns its answer", async () => {
    const checker = registryHeadChecker(url, REGISTRY, http);
    const s = seal({ leaf: 3 });
    const proof = [seal({ p: 1 }), seal({ p: 2 })];
    expect(await checker.verifyInclusion(s, 3, 8, proof)).to.equal(true);
    expect(await checker.verifyInclusion(s, 4, 8, proof)).to.equal(false);
    expect(calls[0]!.to.toLowerCase()).to.equal(REGISTRY.toLowerCase());
    expect(calls[0]!.args).to.deep.equal([s, 3n, 8n, proof]);
  });

  it("answers false for a tree size the registry never posted (AnchorRegistryUnknownTreeSize)", async () => {
    const checker = registryHeadChecker(url, REGISTRY, http);
    expect(await checker.verifyInclusion(seal({ leaf: 3 }), 3, Number(UNKNOWN_SIZE), [])).to.equal(false);
  });

  it("refuses, in one line, an address with no code or a contract that is no AnchorRegistry", async () => {
    const s = seal({ leaf: 3 });
    await expectRejected(
      registryHeadChecker(url, EMPTY, http).verifyInclusion(s, 3, 8, []),
      `--registry ${EMPTY} is not a contract on the chain at ${url} (no code)`,
    );
    await expectRejected(
      registryHeadChecker(url, OTHER_CONTRACT, http).verifyInclusion(s, 3, 8, []),
      `--registry ${OTHER_CONTRACT} is a contract but not an AnchorRegistry (anchorCount() fails)`,
    );
  });

  it("fails at once on a dead port and within the deadline on a node that stopped answering", async () => {
    await expectRejected(
      registryHeadChecker(deadUrl, REGISTRY, http).verifyInclusion(seal({}), 0, 1, []),
      /^http:\/\/127\.0\.0\.1:\d+: cannot reach the chain node \(ECONNREFUSED\)$/,
    );
    const started = Date.now();
    await expectRejected(
      registryHeadChecker(hangingUrl, REGISTRY, { timeoutMs: 300 }).verifyInclusion(seal({}), 0, 1, []),
      `${hangingUrl}: no answer from the chain node within 0.3 s`,
    );
    expect(Date.now() - started).to.be.below(1_500);
  });
});

async function expectRejected(promise: Promise<unknown>, message: string | RegExp): Promise<void> {
  const error = await promise.then(
    () => expect.fail("expected a rejection"),
    (e: Error) => e,
  );
  if (typeof message === "string") expect(error.message).to.equal(message);
  else expect(error.message).to.match(message);
  expect(error.message).not.to.contain("\n");
}
