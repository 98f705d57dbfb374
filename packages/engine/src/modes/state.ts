import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import { latestModeRecord, listModeRecords } from "../store/queries/modes";
import type { MethodologyNoticeBody, ModeBody, ModeNoticeBody } from "./records";
import type { Mode, ModeCause, OperatorNotice } from "./timeline";

/** The mode in force: the newest mode record, or `active` with no record before the first change. */
export interface ModeState {
  readonly mode: Mode;
  readonly since: string | null;
  readonly declared: string | null;
  readonly cause: ModeCause | null;
  readonly seal: Hex32 | null;
}

export const INITIAL_MODE: ModeState = {
  mode: "active",
  since: null,
  declared: null,
  cause: null,
  seal: null,
};

/** A stored mode record with its parsed body. */
export interface StoredMode extends ModeBody {
  readonly seal: Hex32;
  readonly leafIndex: number;
}

export async function currentMode(db: Kysely<Database>): Promise<ModeState> {
  const row = await latestModeRecord(db, "mode");
  if (!row) return INITIAL_MODE;
  const body = JSON.parse(row.body) as ModeBody;
  return {
    mode: body.mode,
    since: body.since,
    declared: body.declared,
    cause: body.cause,
    seal: row.seal as Hex32,
  };
}

/** Every mode record, oldest first. */
export async function modeHistory(db: Kysely<Database>): Promise<StoredMode[]> {
  return (await listModeRecords(db, "mode")).map((row) => ({
    ...(JSON.parse(row.body) as ModeBody),
    seal: row.seal as Hex32,
    leafIndex: row.leaf_index!,
  }));
}

/** The operator's mode notices, as the timeline reads them. */
export async function operatorNotices(db: Kysely<Database>): Promise<OperatorNotice[]> {
  return (await listModeRecords(db, "notice")).map((row) => {
    const body = JSON.parse(row.body) as ModeNoticeBody;
    return { seal: row.seal as Hex32, noticed: body.noticed, to: body.to, reason: body.reason };
  });
}

/** A stored notice (mode or methodology) with its seal. */
export type StoredNotice = (ModeNoticeBody | MethodologyNoticeBody) & { readonly seal: Hex32 };

/** Every notice, mode and methodology, in write order. */
export async function allNotices(db: Kysely<Database>): Promise<StoredNotice[]> {
  const rows = (await listModeRecords(db)).filter((r) => r.kind === "notice" || r.kind === "methodology");
  return rows.map((row) => ({
    ...(JSON.parse(row.body) as ModeNoticeBody | MethodologyNoticeBody),
    seal: row.seal as Hex32,
  }));
}

/** Notices not yet in effect on `today`: what the site announces ahead of time. */
export async function pendingNotices(db: Kysely<Database>, today: string): Promise<StoredNotice[]> {
  return (await allNotices(db)).filter((n) => n.effective > today);
}
