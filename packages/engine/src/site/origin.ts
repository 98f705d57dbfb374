import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * The origin every URL the site prints starts with (the "verify it yourself" command's `--api`):
 * the configured public origin, else the address the server listens on. Never the request's
 * `Host` header, which any client sets: `Host: evil.example` must not make a page send its
 * readers to verify against another API.
 */
export function siteOrigin(app: FastifyInstance, configured: string | undefined): () => string {
  if (configured) return () => configured;
  return () => {
    const address = app.server.address() as AddressInfo | string | null;
    if (!address || typeof address === "string") return "http://localhost"; // not listening (tests inject)
    const host = ["0.0.0.0", "::"].includes(address.address) ? "127.0.0.1" : address.address;
    return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  };
}
