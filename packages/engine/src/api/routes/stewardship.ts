import { STEWARDSHIP_V1 } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { currentLpLockAlarm } from "../../stewardship/lp-alarm";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema, uintSchema } from "../schemas";
import type { FromSchema } from "../schema-type";
import { anchorStatus, anchorStatusSchema } from "../views";
import {
  findAnchoredStewardshipDay,
  listAnchoredStewardshipDays,
  type StewardshipDayRow,
} from "../../store/queries/stewardship";

const DAY = 86_400;
const stateSchema = { type: "string", enum: ["normal", "maintenance", "wind-down"] } as const;
const dateSchema = { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" } as const;
const usd = { type: "number", minimum: 0 } as const;

const daySchema = {
  type: "object",
  required: [
    "date",
    "at",
    "asOf",
    "holders",
    "organicVolumeUsd",
    "excludedVolumeUsd",
    "holdersArmed",
    "holdersWindowStart",
    "holdersTrigger",
    "volumeDaysBelow",
    "volumeTrigger",
    "bothTrigger",
    "state",
    "stateSince",
    "clusters",
    "seal",
    "leafIndex",
    "anchor",
  ],
  properties: {
    date: dateSchema,
    at: { ...uintSchema, description: "start of the day measured, unix seconds" },
    asOf: { ...uintSchema, description: "epoch close (UTC midnight after the day), unix seconds" },
    holders: uintSchema,
    organicVolumeUsd: usd,
    excludedVolumeUsd: usd,
    holdersArmed: { type: "boolean" },
    holdersWindowStart: { type: ["integer", "null"], minimum: 0 },
    holdersTrigger: { type: "boolean" },
    volumeDaysBelow: uintSchema,
    volumeTrigger: { type: "boolean" },
    bothTrigger: { type: "boolean" },
    state: stateSchema,
    stateSince: { anyOf: [dateSchema, { type: "null" }] },
    clusters: { ...uintSchema, description: "excluded-volume classifications published that day" },
    seal: { ...hex32Schema, description: "sha256 of the day's sealed body (RFC 8785)" },
    leafIndex: uintSchema,
    anchor: anchorStatusSchema,
  },
} as const;

const clusterSchema = {
  type: "object",
  required: ["criterion", "addresses", "swaps", "volumeUsd", "measures"],
  properties: {
    criterion: { type: "string", enum: ["a", "b", "c"] },
    addresses: { type: "array", items: { type: "string" } },
    swaps: { type: "array", items: { type: "string" } },
    volumeUsd: usd,
    measures: { type: "object", additionalProperties: { type: ["string", "number"] } },
  },
} as const;

const lpLockSchema = {
  description:
    "the LP timelock as the latest record read it (null when none is monitored): expiry, the position's holder and liquidity",
  anyOf: [
    { type: "null" },
    {
      type: "object",
      required: ["lock", "positionManager", "position", "unlockAt", "holder", "liquidity", "block", "alarm"],
      properties: {
        lock: { type: "string" },
        positionManager: { type: "string" },
        position: { type: "string" },
        unlockAt: uintSchema,
        holder: { type: "string" },
        liquidity: { type: "string" },
        block: uintSchema,
        alarm: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
    },
  ],
} as const;

const lpLockAlarmSchema = {
  description:
    "a public alarm: the LP position moved before the lock's expiry (since the first day of the current run of alarmed records), or null",
  anyOf: [
    { type: "null" },
    {
      type: "object",
      required: ["since", "reason"],
      properties: { since: dateSchema, reason: { type: "string" } },
    },
  ],
} as const;

const stewardshipResponse = {
  type: "object",
  required: [
    "version",
    "thresholds",
    "monitored",
    "state",
    "stateSince",
    "asOf",
    "days",
    "clusters",
    "lpLock",
    "lpLockAlarm",
  ],
  properties: {
    version: { type: "string" },
    thresholds: {
      type: "object",
      required: ["holdersArmAbove", "holdersDeclineBps", "volumeFloorUsd", "volumeRunDays", "windowDays"],
      properties: {
        holdersArmAbove: uintSchema,
        holdersDeclineBps: uintSchema,
        volumeFloorUsd: uintSchema,
        volumeRunDays: uintSchema,
        windowDays: uintSchema,
        dustWholeTokens: { type: "string" },
      },
    },
    monitored: {
      description: "the token, its pools and the excluded addresses of the latest record (null before one)",
      anyOf: [
        { type: "null" },
        {
          type: "object",
          required: ["chainId", "token", "pools", "excluded"],
          properties: {
            chainId: uintSchema,
            token: { type: "string" },
            pools: { type: "array", items: { type: "string" } },
            excluded: { type: "array", items: { type: "string" } },
          },
        },
      ],
    },
    state: { anyOf: [stateSchema, { type: "null" }] },
    stateSince: { anyOf: [dateSchema, { type: "null" }] },
    asOf: { anyOf: [uintSchema, { type: "null" }] },
    days: { type: "array", items: daySchema },
    clusters: {
      description: "the latest day's excluded-volume evidence (its 30-day window)",
      type: "array",
      items: clusterSchema,
    },
    lpLock: lpLockSchema,
    lpLockAlarm: lpLockAlarmSchema,
  },
} as const;

/** What `GET /api/v1/stewardship` answers. */
export type StewardshipView = FromSchema<typeof stewardshipResponse>;

function dayView(row: StewardshipDayRow & { anchor: Parameters<typeof anchorStatus>[0] }) {
  const b = row.body;
  return {
    date: row.day,
    at: b.asOf - DAY,
    asOf: b.asOf,
    holders: b.holders,
    organicVolumeUsd: b.organicVolumeUsd,
    excludedVolumeUsd: b.excludedVolumeUsd,
    holdersArmed: b.holdersArmed,
    holdersWindowStart: b.holdersWindowStart,
    holdersTrigger: b.holdersTrigger,
    volumeDaysBelow: b.volumeDaysBelow,
    volumeTrigger: b.volumeTrigger,
    bothTrigger: b.bothTrigger,
    state: b.state,
    stateSince: b.stateSince,
    clusters: b.evidence.length,
    seal: row.seal,
    leafIndex: row.leafIndex,
    anchor: anchorStatus(row.anchor),
  };
}

/**
 * `GET /api/v1/stewardship`: the kill-rule monitor's latest state and its whole daily series
 * (each day's values, trigger states, seal and anchor status) with the latest day's cluster
 * evidence; `GET /api/v1/stewardship/days/:day`: one day's sealed body, byte for byte.
 */
export function stewardshipRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const db = deps.store.db;
  app.get(
    "/api/v1/stewardship",
    {
      schema: {
        summary: "Stewardship monitor (stewardship/v1): state, daily series, excluded-volume evidence",
        tags: ["stewardship"],
        response: { 200: stewardshipResponse, "4xx": errorBody },
      },
    },
    async () => {
      const rows = await listAnchoredStewardshipDays(db);
      const latest = rows.at(-1)?.body;
      return {
        version: STEWARDSHIP_V1.version,
        thresholds: {
          holdersArmAbove: STEWARDSHIP_V1.holdersArmAbove,
          holdersDeclineBps: Number(STEWARDSHIP_V1.holdersDeclineBps),
          volumeFloorUsd: STEWARDSHIP_V1.volumeFloorUsd,
          volumeRunDays: STEWARDSHIP_V1.volumeRunDays,
          windowDays: STEWARDSHIP_V1.windowDays,
          dustWholeTokens: STEWARDSHIP_V1.dustWholeTokens.toString(),
        },
        monitored: latest
          ? { chainId: latest.chainId, token: latest.token, pools: latest.pools, excluded: latest.excluded }
          : null,
        state: latest?.state ?? null,
        stateSince: latest?.stateSince ?? null,
        asOf: latest?.asOf ?? null,
        days: rows.map(dayView),
        clusters: (latest?.evidence ?? []).map((e) => ({
          criterion: e.criterion,
          addresses: e.cluster,
          swaps: e.swaps,
          volumeUsd: e.volumeUsd,
          measures: e.measures,
        })),
        lpLock: latest?.lpLock ?? null,
        lpLockAlarm: await currentLpLockAlarm(db),
      };
    },
  );

  app.get(
    "/api/v1/stewardship/days/:day",
    {
      schema: {
        summary: "One day's sealed stewardship record: sha256 of `body` as sent is `seal`",
        tags: ["stewardship"],
        params: { type: "object", required: ["day"], properties: { day: dateSchema } },
        response: { "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const { day } = request.params as { day: string };
      const row = await findAnchoredStewardshipDay(db, day);
      if (!row) throw new ApiError(404, "UNKNOWN_DAY", `no stewardship record for ${day}`);
      const head = JSON.stringify({
        day: row.day,
        seal: row.seal,
        leafIndex: row.leafIndex,
        anchor: anchorStatus(row.anchor),
      });
      // The body goes out as its stored canonical text, so hashing it needs no re-encoding.
      return reply.type("application/json; charset=utf-8").send(`${head.slice(0, -1)},"body":${row.text}}`);
    },
  );
}
