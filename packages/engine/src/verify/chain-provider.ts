import { JsonRpcProvider, Network, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult } from "ethers";
import type { ChainReader } from "./deep";
import { JsonRpcError as CallFailed } from "./json-rpc";

/**
 * An ethers provider whose every request goes through `augur verify`'s own JSON-RPC reader (its
 * deadline, its one-line errors, a test's double), so the engine's measuring code (which takes an
 * ethers provider) re-measures over `--rpc` unchanged. One request at a time; the chain id is
 * read once and pinned, so an unreachable node fails once instead of being retried.
 */
class ReaderProvider extends JsonRpcProvider {
  constructor(
    private readonly reader: ChainReader,
    chainId: bigint,
  ) {
    const network = Network.from(chainId);
    super(undefined, network, { staticNetwork: network, batchMaxCount: 1 });
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const answers: (JsonRpcResult | JsonRpcError)[] = [];
    for (const { id, method, params } of Array.isArray(payload) ? payload : [payload]) {
      try {
        answers.push({ id, result: await this.reader.call(method, params as unknown[]) });
      } catch (error) {
        // A node's error answer goes back to ethers as one (revert data included: a contract's
        // custom error is decoded as it would be over HTTP); a transport failure stays thrown.
        if (!(error instanceof CallFailed)) throw error;
        answers.push({ id, error: { code: -32000, message: error.message, data: error.data } });
      }
    }
    // Typed as results by ethers, though the HTTP transport hands error answers through the same way.
    return answers as JsonRpcResult[];
  }
}

/** An ethers provider over `reader`, for the chain it answers `eth_chainId` for. */
export async function readerProvider(reader: ChainReader): Promise<JsonRpcProvider> {
  const chainId = BigInt((await reader.call("eth_chainId", [])) as string);
  return new ReaderProvider(reader, chainId);
}
