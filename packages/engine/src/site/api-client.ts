import type { FastifyInstance } from "fastify";
import { SitePageError } from "./errors";

/**
 * Reads a public `/api/v1` view in process (`inject`): the page shows exactly what the API
 * answers. A 4xx answer becomes a 4xx page with the API's message.
 */
export async function apiGet<T>(app: FastifyInstance, url: string): Promise<T> {
  const res = await app.inject({ method: "GET", url });
  if (res.statusCode >= 400) {
    let code = "API_ERROR";
    let message = `the API answered ${res.statusCode}`;
    try {
      const body = res.json() as { error?: { code?: string; message?: string } };
      code = body.error?.code ?? code;
      message = body.error?.message ?? message;
    } catch {
      // not JSON: keep the generic message
    }
    throw new SitePageError(res.statusCode < 500 ? res.statusCode : 502, code, message);
  }
  return res.json() as T;
}

/** The raw body of a view (for the manifest, whose exact text is the sealed text). */
export async function apiGetText(app: FastifyInstance, url: string): Promise<string> {
  const res = await app.inject({ method: "GET", url });
  if (res.statusCode >= 400) await apiGet(app, url);
  return res.body;
}
