import { connect, type Socket } from "node:net";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { openStore, type Store } from "../store/open";
import {
  DEFAULT_SERVER_LIMITS,
  publicOriginOption,
  serverLimitsOption,
  UsageError,
  type ServerLimits,
} from "../config/env";
import { TEST_CHAIN_ID, TEST_NOW } from "../../test-support/records/testing";

const LIMITS: ServerLimits = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  keepAliveTimeoutMs: 300,
  idleTimeoutMs: 5_000,
  maxConnections: 20,
};

interface Outcome {
  /** Milliseconds from connecting to the server closing the socket. */
  readonly closedAfterMs: number;
  /** What the server wrote before closing. */
  readonly received: string;
}

/** Opens a socket, writes `text`, and waits (at most `giveUpMs`) for the server to close it. */
function holdOpen(port: number, text: string, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", () => {}); // a reset is a close too
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${giveUpMs} ms; received ${JSON.stringify(received)}`));
    }, giveUpMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
  });
}

describe("HTTP server limits (timeouts and the connection cap)", function () {
  this.timeout(30_000);
  let store: Store;
  let app: FastifyInstance;
  let port: number;

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => TEST_NOW }, { limits: LIMITS });
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it("closes sockets that sent half a header block, all of them, soon after the header deadline", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => holdOpen(port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ", 5_000)),
    );
    for (const { closedAfterMs, received } of outcomes) {
      expect(closedAfterMs).to.be.at.least(LIMITS.headersTimeoutMs - 50);
      expect(closedAfterMs).to.be.below(LIMITS.headersTimeoutMs + 1_500);
      expect(received).to.match(/^HTTP\/1\.1 408/);
    }
  });

  it("closes a request whose declared body never comes, after the request deadline", async () => {
    const head = [
      "POST /api/v1/records HTTP/1.1",
      "Host: x",
      "Content-Type: application/json",
      "Content-Length: 500",
      "",
      '{"type":',
    ].join("\r\n");
    const { closedAfterMs, received } = await holdOpen(port, head, 5_000);
    expect(closedAfterMs).to.be.at.least(LIMITS.requestTimeoutMs - 50);
    expect(closedAfterMs).to.be.below(LIMITS.requestTimeoutMs + 1_500);
    expect(received).to.match(/^HTTP\/1\.1 408/);
  });

  it("closes an idle keep-alive socket after the keep-alive timeout", async () => {
    const { closedAfterMs, received } = await holdOpen(
      port,
      "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
      5_000,
    );
    expect(received).to.match(/^HTTP\/1\.1 200/);
    expect(closedAfterMs).to.be.at.least(LIMITS.keepAliveTimeoutMs - 50);
    expect(closedAfterMs).to.be.below(LIMITS.keepAliveTimeoutMs + 1_500);
  });

  it("closes sockets beyond the connection cap on arrival, and serves again once they are gone", async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < LIMITS.maxConnections; i += 1) {
        const socket = connect(port, "127.0.0.1");
        socket.on("error", () => {});
        await new Promise((resolve) => socket.once("connect", resolve));
        held.push(socket);
      }
      await new Promise((resolve) => setTimeout(resolve, 50)); // the server has accepted them all
      const extra = await holdOpen(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 2_000);
      expect(extra.received).to.equal("");
      expect(extra.closedAfterMs).to.be.below(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await holdOpen(
      port,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      2_000,
    );
    expect(again.received).to.match(/^HTTP\/1\.1 200/);
  });

  describe("serverLimitsOption", () => {
    it("takes the defaults, flags over env, and refuses bad values with one clear line", () => {
      expect(serverLimitsOption({}, {})).to.deep.equal(DEFAULT_SERVER_LIMITS);
      expect(
        serverLimitsOption(
          { "max-connections": "7" },
          { AUGUR_MAX_CONNECTIONS: "9", AUGUR_KEEP_ALIVE_TIMEOUT_MS: "1234" },
        ),
      ).to.deep.include({ maxConnections: 7, keepAliveTimeoutMs: 1234 });
      expect(() => serverLimitsOption({ "request-timeout-ms": "0" }, {})).to.throw(
        UsageError,
        "--request-timeout-ms must be between 1 and 3600000, not 0",
      );
      expect(() => serverLimitsOption({}, { AUGUR_HEADERS_TIMEOUT_MS: "1e4" })).to.throw(
        UsageError,
        "--headers-timeout-ms must be an integer, not '1e4'",
      );
      expect(() => serverLimitsOption({ "headers-timeout-ms": "40000" }, {})).to.throw(
        UsageError,
        "--headers-timeout-ms (40000) must not exceed --request-timeout-ms (30000)",
      );
    });
  });

  describe("publicOriginOption", () => {
    it("takes an http(s) origin (flag over env), unset when neither is given, and refuses anything else", () => {
      expect(publicOriginOption(undefined, {})).to.equal(undefined);
      expect(publicOriginOption("https://augur.example/", { AUGUR_PUBLIC_ORIGIN: "http://x" })).to.equal(
        "https://augur.example",
      );
      expect(publicOriginOption(undefined, { AUGUR_PUBLIC_ORIGIN: "http://10.0.0.1:8787" })).to.equal(
        "http://10.0.0.1:8787",
      );
      for (const bad of [
        "augur.example",
        "ftp://augur.example",
        "https://augur.example/api",
        "https://a.example?x=1",
      ])
        expect(() => publicOriginOption(bad, {}), bad).to.throw(UsageError, "--public-origin must be");
    });
  });
});
