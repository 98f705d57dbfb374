import { expect } from "chai";
import fc from "fast-check";
import type { FastifyInstance, InjectOptions } from "fastify";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import {
  addTestSeason,
  decision,
  registerTestAgent,
  sign,
  snapshot,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { ingestRecord, type Submission } from "../records/ingest";
import { testApp } from "../../test-support/api/testing";

/** Spellings Ajv's coercion would read as numbers: each must be refused where an integer is due. */
const NOT_SAFE_INTEGERS = [
  "Infinity",
  "-Infinity",
  "+Infinity",
  "1e309",
  "1e400",
  "-1e400",
  "1e3",
  "1.0",
  "1.5",
  "+1",
  "0x10",
  "0b1",
  "0o7",
  " 1",
  "1 ",
  "01",
  "-0",
  "",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "1".repeat(400),
];

/** Strings meant to break parsers, routers and validators. */
const NASTY = [
  "..",
  "../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "%00",
  "\u0000",
  "%E0%A4%A",
  "%",
  "%zz",
  "😀",
  "\uFEFF",
  "\u202Eevil",
  "a".repeat(300),
  "0x" + "g".repeat(64),
  "0X" + "a".repeat(64),
  "0x" + "a".repeat(63),
  "0x" + "a".repeat(65),
  "-1",
  "1e3",
  "NaN",
  ...NOT_SAFE_INTEGERS,
  "null",
  "[]",
  "{}",
  "' OR 1=1 --",
  "<script>",
  "s1;DROP TABLE records",
];

const junk = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.stringMatching(/^[0-9a-fA-Fx]{0,70}$/),
);

/** encodeURIComponent, with lone surrogates (which it cannot encode) sent as raw %ED%xx bytes. */
function encode(s: string): string {
  return [...s]
    .map((c) =>
      /^[\uD800-\uDFFF]$/.test(c)
        ? `%ED%${(0xa0 + (c.charCodeAt(0) & 0x3f)).toString(16)}`
        : encodeURIComponent(c),
    )
    .join("");
}

/** Path segments: raw nasty strings (percent-encoding only what a URL cannot carry) or encoded junk. */
const segment = fc.oneof(
  junk.map(encode),
  fc.constantFrom(...NASTY).map((s) => s.replace(/[^\x21-\x7e]/gu, encode)),
);

/** A URL per integer parameter of the generated requests, `{n}` standing for the value. */
const INTEGER_SLOTS = [
  "/api/v1/anchors?limit={n}",
  "/api/v1/anchors?after={n}",
  "/api/v1/consensus/0x5fbdb2315678afecb367f032d93f642f64180aa3/{n}",
  "/api/v1/seasons/s1/leaderboard?limit={n}",
  "/api/v1/seasons/s1/leaderboard?offset={n}",
  "/api/v1/seasons/s1/standings?limit={n}",
  "/api/v1/seasons/s1/standings?offset={n}",
];

interface OpenApiParameter {
  name: string;
  in: string;
  schema?: { type?: unknown };
}
type OpenApiDoc = { paths: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> };

/** Every (route, integer parameter) of the OpenAPI document, other parameters filled with valid values. */
function integerSlots(doc: OpenApiDoc): string[] {
  const filler: Record<string, string> = {
    id: "alpha",
    season_id: "s1",
    asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  };
  const slots: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    const parameters = methods.get?.parameters ?? [];
    for (const target of parameters.filter((p) => p.schema?.type === "integer")) {
      const value = (p: OpenApiParameter) => (p === target ? "{n}" : (filler[p.name] ?? "1"));
      let url = path;
      for (const p of parameters.filter((q) => q.in === "path")) url = url.replace(`{${p.name}}`, value(p));
      const query = parameters
        .filter((p) => p.in === "query" && (p === target || p.name in filler))
        .map((p) => `${p.name}=${value(p)}`);
      slots.push(query.length > 0 ? `${url}?${query.join("&")}` : url);
    }
  }
  return slots;
}

function flipHexDigit(sig: string, at: number): string {
  const i = 2 + (at % (sig.length - 2));
  const c = sig[i]!;
  return sig.slice(0, i) + (c === "0" ? "1" : "0") + sig.slice(i + 1);
}

for (const backend of testBackends())
  describe(`HTTP API under malformed input (${backend.name})`, () => {
    let store: Store;
    let app: FastifyInstance;
    let valid: Submission[];
    const statuses = new Map<number, number>();
    let requests = 0;

    async function send(options: InjectOptions): Promise<number> {
      const res = await app.inject(options);
      requests += 1;
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode < 400 || res.statusCode >= 500) {
        throw new Error(
          `${options.method ?? "GET"} ${String(options.url)} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
        );
      }
      if (res.statusCode !== 404 || res.headers["content-type"]?.toString().includes("json")) {
        const body = res.json() as { error?: { code?: unknown; message?: unknown } };
        expect(body.error?.code, res.body).to.be.a("string");
        expect(body.error?.message, res.body).to.be.a("string");
      }
      return res.statusCode;
    }

    before(async () => {
      store = await backend.open();
      await addTestSeason(store);
      const ingest = (s: Submission) =>
        ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity });
      const { agent } = await registerTestAgent(ingest, "alpha");
      valid = await Promise.all([
        sign("Snapshot", snapshot("alpha", TEST_NOW - 10), agent),
        sign("Decision", decision("alpha", TEST_NOW - 9), agent),
        sign("Trade", trade("alpha", TEST_NOW - 8), agent),
      ]);
      app = await testApp(store);
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("answers every generated malformed request with a 4xx JSON error, never a 5xx", async () => {
      const getRequest = fc.oneof(
        fc
          .tuple(segment, segment)
          .map(([id, season]) => ({ url: `/api/v1/agents/${id}/score?season_id=${season}` })),
        segment.map((id) => ({ url: `/api/v1/agents/alpha/score?season_id=${id}` })),
        segment.map((id) => ({ url: `/api/v1/agents/${id}/score` })),
        segment.map((seal) => ({ url: `/api/v1/anchors/leaves/${seal}` })),
        segment.map((seal) => ({ url: `/api/v1/records/${seal}` })),
        segment.map((id) => ({ url: `/api/v1/seasons/${id}/leaderboard?limit=0` })),
        fc.tuple(segment, segment).map(([limit, offset]) => ({
          url: `/api/v1/seasons/s1/leaderboard?limit=x${limit}&offset=${offset}`,
        })),
        fc
          .tuple(segment, fc.integer())
          .map(([after, limit]) => ({ url: `/api/v1/anchors?after=${after}y&limit=${limit}` })),
        fc.integer({ min: 501, max: 2 ** 40 }).map((limit) => ({ url: `/api/v1/anchors?limit=${limit}` })),
        fc.tuple(segment, segment).map(([asset, w]) => ({ url: `/api/v1/consensus/${asset}/${w}` })),
        fc
          .tuple(fc.constantFrom(...NOT_SAFE_INTEGERS), fc.constantFrom(...INTEGER_SLOTS))
          .map(([n, slot]) => ({
            url: slot.replace("{n}", encodeURIComponent(n)),
          })),
        fc
          .integer({ min: -(2 ** 40), max: 0 })
          .map((w) => ({ url: `/api/v1/consensus/0x5fbdb2315678afecb367f032d93f642f64180aa3/${w}` })),
        segment.map((s) => ({ url: `/api/v1/${s}` })),
        segment.map((s) => ({ url: `/api/v1/agents/${s}/${s}/score` })),
      );
      const postRequest = fc.oneof(
        fc.jsonValue({ maxDepth: 4 }).map((payload) => ({ payload: JSON.stringify(payload) })),
        fc
          .record({ type: junk, message: fc.jsonValue({ maxDepth: 3 }), signature: junk })
          .map((p) => ({ payload: JSON.stringify(p) })),
        fc
          .tuple(
            fc.nat(2),
            fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
          )
          .map(([i, message]) => ({ payload: JSON.stringify({ ...valid[i]!, message }) })),
        fc
          .tuple(
            fc.nat(2),
            fc.nat(200),
            fc.constantFrom(
              "agentId",
              "seasonId",
              "nav",
              "flow",
              "asset",
              "txHash",
              "confidenceBps",
              "takenAt",
              "note",
            ),
            fc.jsonValue({ maxDepth: 1 }),
          )
          .map(([i, _n, key, value]) => {
            const sub = valid[i]!;
            const message = { ...(sub.message as object), [key]: value };
            return { payload: JSON.stringify({ ...sub, message }) };
          }),
        fc.tuple(fc.nat(2), fc.nat()).map(([i, at]) => ({
          payload: JSON.stringify({
            ...valid[i]!,
            signature: flipHexDigit(valid[i]!.signature as string, at),
          }),
        })),
        fc
          .tuple(fc.nat(2), junk)
          .map(([i, sig]) => ({ payload: JSON.stringify({ ...valid[i]!, signature: sig }) })),
        fc.tuple(fc.nat(2), fc.integer({ min: 16 * 1024, max: 64 * 1024 })).map(([i, size]) => ({
          payload: JSON.stringify({
            ...valid[i]!,
            message: { ...(valid[i]!.message as object), note: "x".repeat(size) },
          }),
        })),
        fc.string({ maxLength: 200 }).map((text) => ({ payload: `{"type":${text}` })),
        fc
          .tuple(
            junk,
            fc.constantFrom(
              "application/xml",
              "application/x-www-form-urlencoded",
              "image/png",
              "text/plain",
            ),
          )
          .map(([text, contentType]) => ({ payload: text, contentType })),
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(getRequest, postRequest), async (req) => {
          if ("url" in req) {
            await send({ method: "GET", url: req.url });
          } else {
            await send({
              method: "POST",
              url: "/api/v1/records",
              payload: req.payload,
              headers: { "content-type": "contentType" in req ? req.contentType : "application/json" },
            });
          }
        }),
      );
      expect(requests).to.be.at.least(Number(process.env.FC_RUNS ?? 1000));
      expect([...statuses.keys()].every((s) => s >= 400 && s < 500)).to.equal(true);
      // The generators reach every kind of refusal, not just one.
      for (const status of [400, 401, 403, 404, 413, 415])
        expect(statuses.get(status) ?? 0, `status ${status}`).to.be.greaterThan(0);
    });

    it("refuses every non-integer spelling at every integer parameter of every route with a 400", async () => {
      const doc = (await app.inject({ url: "/api/v1/openapi.json" })).json() as OpenApiDoc;
      const slots = integerSlots(doc);
      // Every route whose OpenAPI entry has an integer parameter (a new one is swept automatically).
      expect(slots.length).to.be.at.least(INTEGER_SLOTS.length);
      for (const slot of slots) {
        for (const n of NOT_SAFE_INTEGERS) {
          const url = slot.replace("{n}", encodeURIComponent(n));
          const res = await app.inject({ url });
          expect(res.statusCode, `${url}: ${res.body}`).to.equal(400);
        }
      }
    });

    it("stored nothing from any of them", async () => {
      const count = await store.db
        .selectFrom("records")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).to.equal(1); // the registration made in before()
    });
  });
