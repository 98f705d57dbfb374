import { AugurError } from "@augur/scorer";
import { type HttpOptions, RequestFailedError, requestJson } from "./http";

/** A JSON-RPC error answer; `data` carries the revert data of a failed eth_call. */
export class JsonRpcError extends AugurError {
  override readonly name = "JsonRpcError";
  readonly data: string | undefined;
  constructor(url: string, method: string, message: string, data: string | undefined) {
    super("JSON_RPC_ERROR", `${url}: ${method} failed (${message})`, { url, method });
    this.data = data;
  }
}

/** One JSON-RPC 2.0 call over HTTP POST, within the deadline of `options`; no retry. */
export async function rpcCall(
  url: string,
  method: string,
  params: readonly unknown[],
  options: HttpOptions,
): Promise<unknown> {
  const { status, body } = await requestJson(
    url,
    options,
    { jsonrpc: "2.0", id: 1, method, params },
    "the chain node",
  );
  const answer = (typeof body === "object" && body !== null ? body : {}) as {
    result?: unknown;
    error?: { message?: unknown; data?: unknown };
  };
  if (answer.error !== undefined) {
    // Revert data: a string (geth, anvil) or nested in { message, data } (Hardhat).
    const nested = answer.error.data as { data?: unknown } | string | undefined;
    const data =
      typeof nested === "string" ? nested : typeof nested?.data === "string" ? nested.data : undefined;
    const message = typeof answer.error.message === "string" ? answer.error.message : "error";
    throw new JsonRpcError(url, method, message.split("\n")[0]!, data);
  }
  if (status !== 200 || answer.result === undefined)
    throw new RequestFailedError(url, `HTTP ${status}, not a JSON-RPC answer to ${method}`);
  return answer.result;
}
