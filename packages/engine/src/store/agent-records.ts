import type { Hex32 } from "@augur/scorer";
import { callPhase, snapshotPointOf, usdgDecimalsOf, usdgNumberIsExact, type Fields } from "@augur/records";
import type { RecordKind } from "./schema";

/** The kinds of record the cycle's scores and risk rows are computed from. */
export const INPUT_KINDS = ["snapshot", "decision", "trade", "call"] as const satisfies readonly RecordKind[];

/** A decision's fields the cycle reads, as stored in its sealed message. */
export type DecisionFields = {
  readonly decidedAt: number;
  readonly source: string;
  readonly asset: string;
  readonly action: string;
};

/** A trade's fields the cycle reads, as stored (quantity and price in base units, 18 decimals). */
export type TradeFields = {
  readonly executedAt: number;
  readonly asset: string;
  readonly side: string;
  readonly quantity: string;
  readonly price: string;
};

/** A resolved call's fields the cycle reads (the chain indexer's `augur-call/v1` body). */
export type CallFields = {
  readonly resolvedAt: number;
  readonly confidenceBps: number;
  readonly outcome: string;
};

/** NAV and flow as stored and their decimals, kept only where the USDG number alone could not reproduce them. */
export interface RawAmounts {
  readonly nav: unknown;
  readonly flow: unknown;
  readonly usdgDecimals: number;
}

/** Seals as 32 bytes each (a hex string costs three times that, and a season holds millions). */
export class SealColumn {
  private bytes = Buffer.alloc(0);
  length = 0;

  push(seal: Hex32): void {
    if (seal.length !== 66) throw new RangeError(`seal ${seal} is not 32 bytes of hex`);
    if ((this.length + 1) * 32 > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(16, Math.ceil(this.length * 1.5)) * 32);
      this.bytes.copy(grown, 0, 0, this.length * 32);
      this.bytes = grown;
    }
    this.bytes.write(seal.slice(2), this.length * 32, 32, "hex");
    this.length += 1;
  }

  /** The seal at `i`. */
  at(i: number): Hex32 {
    return `0x${this.bytes.toString("hex", i * 32, i * 32 + 32)}`;
  }
}

/**
 * One agent's snapshots as columns: a 10,000-agent, 720-hour season is 7.2 million snapshots,
 * which as parsed bodies would take gigabytes, and as columns about 70 bytes each. Values are the
 * site's `snapshotPoint` reading (USDG, fraction invested, each snapshot in its own decimals); a
 * snapshot whose NAV or flow that number does not print exactly (`usdgNumberIsExact`: more than 15
 * digits) also keeps the stored strings (`raw`) for the scorer's exact decimal.
 */
export class SnapshotColumns {
  length = 0;
  /** Unix seconds. */
  at = new Float64Array(0);
  /** USDG. */
  nav = new Float64Array(0);
  flow = new Float64Array(0);
  /** Fraction of NAV invested (basis points / 10,000). */
  invested = new Float64Array(0);
  private readonly seals = new SealColumn();
  private wide: Map<number, RawAmounts> | undefined;

  /** Appends one stored snapshot message and its record seal. */
  push(message: Fields, seal: Hex32): void {
    if (this.length === this.at.length) this.grow();
    const i = this.length;
    const point = snapshotPointOf(message, seal);
    this.at[i] = point.at;
    this.nav[i] = point.nav;
    this.flow[i] = point.flow;
    this.invested[i] = point.invested;
    this.seals.push(seal);
    const usdgDecimals = usdgDecimalsOf(message);
    if (!usdgNumberIsExact(message.nav, usdgDecimals) || !usdgNumberIsExact(message.flow, usdgDecimals))
      (this.wide ??= new Map()).set(i, { nav: message.nav, flow: message.flow, usdgDecimals });
    this.length = i + 1;
  }

  /** The record seal of snapshot `i`. */
  seal(i: number): Hex32 {
    return this.seals.at(i);
  }

  /** The stored NAV and flow of snapshot `i` when its USDG numbers are not exact; else undefined. */
  raw(i: number): RawAmounts | undefined {
    return this.wide?.get(i);
  }

  /** Doubling while small, then by a quarter: an agent's hourly growth reallocates rarely. */
  private grow(): void {
    const capacity =
      this.at.length < 256 ? Math.max(16, this.at.length * 2) : Math.ceil(this.at.length * 1.25);
    const widen = (old: Float64Array) => {
      const next = new Float64Array(capacity);
      next.set(old.subarray(0, this.length));
      return next;
    };
    this.at = widen(this.at);
    this.nav = widen(this.nav);
    this.flow = widen(this.flow);
    this.invested = widen(this.invested);
  }
}

/** A JSON string with no escape (nor the control characters JSON forbids): its text is its value. */
const STRING = /"([\u0020\u0021\u0023-\u005b\u005d-\uffff]*)"/.source;
/** A JSON integer as canonical JSON writes it (no sign, no leading zero). */
const INTEGER = /(0|[1-9][0-9]*)/.source;
/**
 * A stored snapshot body in the form ingestion writes it — RFC 8785 canonical JSON of
 * `sealedRecord("Snapshot", …)`: sorted keys, no spaces — matched whole. Groups 5, 6, 7 and 9
 * are flow, investedBps, nav and takenAt. Every text it matches is valid JSON whose `message`
 * holds exactly these values, so reading them from the match equals parsing.
 */
export const CANONICAL_SNAPSHOT = new RegExp(
  `^\\{"domain":\\{"chainId":${INTEGER},"name":${STRING},"version":${STRING}\\},` +
    `"format":"augur-record/v1","message":\\{"agentId":${STRING},"flow":${STRING},` +
    `"investedBps":${INTEGER},"nav":${STRING},"seasonId":${STRING},"takenAt":${INTEGER}\\},` +
    `"type":"Snapshot"\\}$`,
);

/**
 * A snapshot body's `message` fields the cycle reads. The canonical form is read with one regular
 * expression instead of `JSON.parse`: a 720-hour season holds 7.2 million snapshots, and parsing
 * each whole body (domain, ids and all) was half the cost of a first cycle's read.
 */
export function snapshotMessage(body: string): Fields {
  const m = CANONICAL_SNAPSHOT.exec(body);
  if (m === null) {
    // a signed record keeps them in `message`; a measured one (augur-snapshot/v2) at the top, with
    // the USDG decimals its amounts are in
    const parsed = JSON.parse(body) as Fields & { message?: Fields };
    const { flow, investedBps, nav, takenAt, usdgDecimals } = parsed.message ?? parsed;
    return { flow, investedBps, nav, takenAt, ...(usdgDecimals === undefined ? {} : { usdgDecimals }) };
  }
  return { flow: m[5], investedBps: Number(m[6]), nav: m[7], takenAt: Number(m[9]) };
}

// Parsed bodies repeat the same few assets, actions, sides and outcomes millions of times: one
// shared string each instead of one per record. Bounded, so odd input cannot grow it forever.
const interned = new Map<string, string>();
const INTERN_LIMIT = 4096;
function intern<T>(value: T): T {
  if (typeof value !== "string" || value.length > 66) return value;
  const known = interned.get(value);
  if (known !== undefined) return known as T;
  if (interned.size >= INTERN_LIMIT) interned.clear();
  interned.set(value, value);
  return value;
}

/**
 * One agent's anchored input records of a season, decoded once from their stored bodies, each
 * kind in log order. Only the fields a score or a risk row reads are kept.
 */
export class AgentRecords {
  readonly snapshots = new SnapshotColumns();
  readonly decisions: DecisionFields[] = [];
  readonly trades: TradeFields[] = [];
  readonly calls: CallFields[] = [];
  /** The record seal of each decision, trade and call, by position in its list. */
  readonly decisionSeals = new SealColumn();
  readonly tradeSeals = new SealColumn();
  readonly callSeals = new SealColumn();
  /** Commit and reveal records read (calls sealed as they happen; their outcomes come later). */
  openCalls = 0;

  /** The seal of the `i`-th record of `kind` (log order), as the scorer's input rows index them. */
  sealOf(kind: "snapshot" | "decision" | "trade" | "call", i: number): Hex32 | undefined {
    if (kind === "snapshot") return i < this.snapshots.length ? this.snapshots.seal(i) : undefined;
    const column = { decision: this.decisionSeals, trade: this.tradeSeals, call: this.callSeals }[kind];
    return i < column.length ? column.at(i) : undefined;
  }

  get count(): number {
    return (
      this.snapshots.length + this.decisions.length + this.trades.length + this.calls.length + this.openCalls
    );
  }

  /**
   * Adds one stored record: signed records carry their fields under `message`, engine-made ones
   * (calls from the chain indexer, measured trades) at the top level.
   */
  add(kind: string, seal: Hex32, body: string): void {
    if (kind === "snapshot") {
      this.snapshots.push(snapshotMessage(body), seal);
      return;
    }
    const parsed = JSON.parse(body) as Fields;
    if (kind === "call") {
      // Calibration scores outcomes: an open call's commit and reveal records wait for theirs.
      if (callPhase(parsed) !== "resolved") {
        this.openCalls++;
        return;
      }
      this.callSeals.push(seal);
      this.calls.push({
        resolvedAt: parsed.resolvedAt as number,
        confidenceBps: parsed.confidenceBps as number,
        outcome: intern(parsed.outcome as string),
      });
      return;
    }
    const m = (parsed.message as Fields | undefined) ?? parsed;
    if (kind === "decision") {
      this.decisionSeals.push(seal);
      this.decisions.push({
        decidedAt: m.decidedAt as number,
        source: intern(m.source as string),
        asset: intern(m.asset as string),
        action: intern(m.action as string),
      });
    } else if (kind === "trade") {
      this.tradeSeals.push(seal);
      this.trades.push({
        executedAt: m.executedAt as number,
        asset: intern(m.asset as string),
        side: intern(m.side as string),
        quantity: m.quantity as string,
        price: m.price as string,
      });
    }
  }
}
