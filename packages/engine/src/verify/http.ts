import { AugurError } from "@augur/scorer";

// Every request `augur verify` makes (engine API and chain JSON-RPC) goes through here, so each
// has a deadline and fails as one line naming the URL.

/** A request that got no usable answer: unreachable, timed out, or not JSON. */
export class RequestFailedError extends AugurError {
  override readonly name = "RequestFailedError";
  constructor(url: string, problem: string) {
    super("REQUEST_FAILED", `${url}: ${problem}`, { url });
  }
}

export interface HttpOptions {
  readonly fetch?: typeof fetch;
  /** Deadline of each request, headers and body included. */
  readonly timeoutMs: number;
}

export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * Connection errors after which the same request is sent once more: a kept-alive socket the
 * server closed (its idle timeout) just as the request went out on it. Every request verify
 * makes is a read, so sending it again is safe; a refused connection is not retried.
 */
const STALE_SOCKET = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"]);

/** GET (or POST `body`) `url` and parse the answer as JSON, within `timeoutMs`. */
export async function requestJson(
  url: string,
  options: HttpOptions,
  body?: unknown,
  what = "the server",
): Promise<JsonAnswer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const init: RequestInit = {
    signal,
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
  };
  let text!: string;
  let status!: number;
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await (options.fetch ?? fetch)(url, init);
      status = response.status;
      text = await response.text();
      break;
    } catch (error) {
      if (signal.aborted)
        throw new RequestFailedError(url, `no answer from ${what} within ${seconds(options.timeoutMs)}`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (attempt === 1 && cause?.code !== undefined && STALE_SOCKET.has(cause.code)) continue;
      throw new RequestFailedError(
        url,
        `cannot reach ${what} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      );
    }
  }
  try {
    return { status, body: JSON.parse(text) };
  } catch {
    throw new RequestFailedError(url, `HTTP ${status}, not JSON`);
  }
}
