import { expect } from "chai";
import { requestJson, RequestFailedError } from "./http";

/** A fetch that fails with a connection error `code` for its first `failures` calls, then answers. */
function flakyFetch(code: string, failures: number) {
  let calls = 0;
  const fetch = (async () => {
    calls += 1;
    if (calls <= failures) throw Object.assign(new TypeError("fetch failed"), { cause: { code } });
    return new Response(JSON.stringify({ ok: true }), { status: 200 });
  }) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

describe("verify's requests", () => {
  it("sends a read once more when the server closed the kept-alive socket it went out on", async () => {
    const flaky = flakyFetch("UND_ERR_SOCKET", 1);
    const answer = await requestJson("http://engine/x", { fetch: flaky.fetch, timeoutMs: 1000 });
    expect(answer).to.deep.equal({ status: 200, body: { ok: true } });
    expect(flaky.calls()).to.equal(2);
  });

  it("gives up after the second stale socket, naming the cause in one line", async () => {
    const flaky = flakyFetch("ECONNRESET", 2);
    const error = await requestJson(
      "http://engine/x",
      { fetch: flaky.fetch, timeoutMs: 1000 },
      undefined,
      "the engine",
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(RequestFailedError);
    expect((error as Error).message).to.contain("http://engine/x: cannot reach the engine (ECONNRESET)");
    expect(flaky.calls()).to.equal(2);
  });

  it("does not retry a refused connection: the engine is not there", async () => {
    const flaky = flakyFetch("ECONNREFUSED", 1);
    const error = await requestJson("http://engine/x", { fetch: flaky.fetch, timeoutMs: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).to.contain("cannot reach the server (ECONNREFUSED)");
    expect(flaky.calls()).to.equal(1);
  });
});
