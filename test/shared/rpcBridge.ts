import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { EIP1193Provider } from "hardhat/types";

/** An HTTP JSON-RPC endpoint in front of an in-process provider. */
export interface RpcBridge {
  /** `http://127.0.0.1:<port>`: what `--rpc` takes. */
  readonly url: string;
  close(): Promise<void>;
}

interface RpcRequest {
  readonly jsonrpc?: string;
  readonly id?: unknown;
  readonly method: string;
  readonly params?: unknown[];
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function answer(provider: EIP1193Provider, call: RpcRequest) {
  try {
    const result = await provider.request({ method: call.method, params: call.params ?? [] });
    return { jsonrpc: "2.0", id: call.id ?? null, result };
  } catch (error) {
    const e = error as { code?: number; message?: string; data?: unknown };
    return {
      jsonrpc: "2.0",
      id: call.id ?? null,
      error: { code: e.code ?? -32603, message: e.message ?? String(error), data: e.data },
    };
  }
}

/**
 * Serves `provider` (the in-process Hardhat network) over HTTP JSON-RPC on a free local port,
 * single calls and batches, so a command that only takes `--rpc <url>` (`augur receipt`) reads
 * the very chain a test has scripted, without a separate `hardhat node`.
 */
export async function serveRpc(provider: EIP1193Provider): Promise<RpcBridge> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = JSON.parse(await readBody(request)) as RpcRequest | RpcRequest[];
      const out = Array.isArray(body)
        ? await Promise.all(body.map((call) => answer(provider, call)))
        : await answer(provider, body);
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    })().catch((error: unknown) => {
      response.writeHead(400, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: (error as Error).message },
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
