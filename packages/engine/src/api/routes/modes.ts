import type { FastifyInstance } from "fastify";
import { dayOf } from "../../modes/days";
import type { ReceiptDocument } from "../../modes/receipt/document";
import { allNotices, currentMode, modeHistory } from "../../modes/state";
import type { FinalNoticeBody } from "../../modes/final";
import { getFinalNotice } from "../../store/queries/final-notice";
import { latestModeRecord } from "../../store/queries/modes";
import { currentLpLockAlarm } from "../../stewardship/lp-alarm";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema } from "../schemas";

const open = { type: "object", additionalProperties: true } as const;
const nullableDay = { type: ["string", "null"] } as const;

/** The mode in force, its history and every notice, each marked pending until it takes effect. */
async function modeView(deps: ApiDeps) {
  const db = deps.store.db;
  const state = await currentMode(db);
  const today = dayOf(deps.now());
  return {
    ...state,
    today,
    history: await modeHistory(db),
    notices: (await allNotices(db)).map((n) => ({ ...n, pending: n.effective > today })),
    finalNotice: await finalNoticeView(deps),
    lpLockAlarm: await currentLpLockAlarm(db),
  };
}

/** The final notice with the transaction that posted its seal, or null before it. */
async function finalNoticeView(deps: ApiDeps) {
  const row = await getFinalNotice(deps.store.db);
  if (!row) return null;
  const body = JSON.parse(row.body) as FinalNoticeBody;
  return {
    seal: row.seal,
    ...body,
    posted: { registry: row.registry, txHash: row.tx_hash, blockNumber: row.block_number },
  };
}

/** What `GET /api/v1/mode` answers. */
export type ModeView = Awaited<ReturnType<typeof modeView>>;

/** `GET /api/v1/mode` (the mode, its history and every notice) and `GET /api/v1/receipt`. */
export function modeRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/mode",
    {
      schema: {
        summary: "The mode in force, every sealed mode record, and every operator and methodology notice",
        description:
          "Modes: active, maintenance, wind-down, archived (docs/stewardship.md). Each history entry and notice is a sealed record whose seal is a leaf of the log (see /api/v1/anchors/leaves/:seal). finalNotice: the archive's last record (null before it), whose seal the AnchorRegistry holds. lpLockAlarm: the LP timelock's public alarm (its position moved before expiry: first day of the run and the reason), or null; every page's banner shows it.",
        tags: ["modes"],
        response: {
          200: {
            type: "object",
            required: [
              "mode",
              "since",
              "declared",
              "cause",
              "seal",
              "today",
              "history",
              "notices",
              "finalNotice",
              "lpLockAlarm",
            ],
            properties: {
              mode: { type: "string", enum: ["active", "maintenance", "wind-down", "archived"] },
              since: nullableDay,
              declared: nullableDay,
              cause: { type: ["object", "null"], additionalProperties: true },
              seal: { type: ["string", "null"] },
              today: { type: "string" },
              history: { type: "array", items: open },
              notices: { type: "array", items: open },
              finalNotice: { type: ["object", "null"], additionalProperties: true },
              lpLockAlarm: {
                anyOf: [
                  { type: "null" },
                  {
                    type: "object",
                    required: ["since", "reason"],
                    properties: { since: { type: "string" }, reason: { type: "string" } },
                  },
                ],
              },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    () => modeView(deps),
  );

  app.get(
    "/api/v1/receipt",
    {
      schema: {
        summary: "The latest final receipt saved by `augur receipt --save`",
        description:
          "Everything spent and burned, reconstructed from public chain records only; re-run `augur receipt` with the same arguments on the same chain to get the same seal.",
        tags: ["modes"],
        response: {
          200: {
            type: "object",
            required: ["seal", "savedOn", "receipt"],
            properties: { seal: hex32Schema, savedOn: { type: "string" }, receipt: open },
          },
          "4xx": errorBody,
        },
      },
    },
    () => receiptView(deps),
  );
}

/** The latest saved final receipt; 404 before one is saved. */
async function receiptView(deps: ApiDeps) {
  const row = await latestModeRecord(deps.store.db, "receipt");
  if (!row) throw new ApiError(404, "NO_RECEIPT", "no final receipt has been saved yet");
  return { seal: row.seal, savedOn: row.day, receipt: JSON.parse(row.body) as ReceiptDocument };
}

/** What `GET /api/v1/receipt` answers. */
export type ReceiptView = Awaited<ReturnType<typeof receiptView>>;
