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

  /** Drops the first `n` seals, into a buffer sized for what is left. */
  drop(n: number): void {
    const left = this.length - n;
    const kept = Buffer.alloc(Math.max(16, left) * 32);
    this.bytes.copy(kept, 0, n * 32, this.length * 32);
    this.bytes = kept;
    this.length = left;
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

  /** Drops the first `n` snapshots (their positions shift down by `n`), into columns sized for what is left. */
  drop(n: number): void {
    const left = this.length - n;
    const keep = (old: Float64Array) => {
      const next = new Float64Array(Math.max(16, left));
      next.set(old.subarray(n, this.length));
      return next;
    };
    this.at = keep(this.at);
    this.nav = keep(this.nav);
    this.flow = keep(this.flow);
    this.invested = keep(this.invested);
    this.seals.drop(n);
    if (this.wide) {
      const wide = new Map<number, RawAmounts>();
      for (const [i, raw] of this.wide) if (i >= n) wide.set(i - n, raw);
      this.wide = wide.size > 0 ? wide : undefined;
    }
    this.length = left;
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

/** How many of an agent's records of each kind (log order): where a batch of new ones starts. */
export interface RecordCounts {
  readonly snapshots: number;
  readonly decisions: number;
  readonly trades: number;
  readonly calls: number;
}

export const NO_RECORDS: RecordCounts = { snapshots: 0, decisions: 0, trades: 0, calls: 0 };

const KINDS = ["snapshots", "decisions", "trades", "calls"] as const;

/** A reader needed an agent's whole history but was given lists that start later (a bug: ask for `complete` first). */
export class PartialRecordsError extends RangeError {
  override readonly name = "PartialRecordsError";
  constructor(readonly agentId: string) {
    super(`the records of agent ${agentId} start after its first: read its whole history first`);
  }
}

/**
 * One agent's anchored input records of a season, decoded once from their stored bodies, each
 * kind in log order. Only the fields a score or a risk row reads are kept.
 *
 * The lists may start after the agent's first records (`base`): a restarted cycle reads only the
 * records after its folds' log size, and records every fold has seen are dropped between hours
 * (`claim`, `settle`). Positions in the lists are then `base` less than the agent's own count of
 * its records of that kind; a reader that needs the whole history asks for it when `complete` is false.
 */
export class AgentRecords {
  readonly snapshots = new SnapshotColumns();
  decisions: DecisionFields[] = [];
  trades: TradeFields[] = [];
  calls: CallFields[] = [];
  /** The record seal of each decision, trade and call, by position in its list. */
  readonly decisionSeals = new SealColumn();
  readonly tradeSeals = new SealColumn();
  readonly callSeals = new SealColumn();
  /** Commit and reveal records read (calls sealed as they happen; their outcomes come later). */
  openCalls = 0;
  /** The agent's records of each kind before the lists' first (null: not known, the agent's earlier records were never read). */
  base: RecordCounts | null;
  /** Per reader (score, risk): the records of each kind it has seen and will not ask for again. */
  private readonly claims = new Map<string, Partial<RecordCounts>>();

  constructor(base: RecordCounts | null = NO_RECORDS) {
    this.base = base;
  }

  /** Whether the lists hold every record of the agent (below the rows' tree size). */
  get complete(): boolean {
    const base = this.base;
    return base !== null && KINDS.every((k) => base[k] === 0);
  }

  /** The agent's own count of its records of each kind: `base` plus what the lists hold (base must be known). */
  totals(): RecordCounts {
    const base = this.base;
    if (base === null) throw new RangeError("an agent's records before the rows' start were never read");
    return {
      snapshots: base.snapshots + this.snapshots.length,
      decisions: base.decisions + this.decisions.length,
      trades: base.trades + this.trades.length,
      calls: base.calls + this.calls.length,
    };
  }

  /**
   * Says that `reader` has seen the agent's first `seen` records of each kind given and will not
   * ask for them again (it folded them, or holds them itself); zeros: it needs them all.
   */
  claim(reader: string, seen: Partial<RecordCounts>): void {
    this.claims.set(reader, seen);
  }

  /** The kinds each reader claimed, for `settle`. */
  readersOf(into: Map<string, Set<string>>): void {
    for (const [reader, seen] of this.claims) {
      let kinds = into.get(reader);
      if (!kinds) into.set(reader, (kinds = new Set()));
      for (const k of Object.keys(seen)) kinds.add(k);
    }
  }

  /**
   * Drops the records every reader of their kind has seen (`readers`: each reader's kinds); a
   * reader that claimed nothing for this agent keeps all of its kinds. Returns the records dropped.
   */
  settle(readers: ReadonlyMap<string, ReadonlySet<string>>): number {
    const base = this.base;
    if (base === null || readers.size === 0) return 0;
    const next = { ...base };
    let dropped = 0;
    for (const k of KINDS) {
      let upTo = Infinity;
      for (const [reader, kinds] of readers)
        if (kinds.has(k)) upTo = Math.min(upTo, this.claims.get(reader)?.[k] ?? 0);
      const total = base[k] + this.lengthOf(k);
      const n = Math.min(upTo === Infinity ? base[k] : upTo, total) - base[k];
      if (n <= 0) continue;
      if (k === "snapshots") this.snapshots.drop(n);
      else {
        this[k] = (this[k] as unknown[]).slice(n) as never;
        ({ decisions: this.decisionSeals, trades: this.tradeSeals, calls: this.callSeals })[k].drop(n);
      }
      next[k] = base[k] + n;
      dropped += n;
    }
    this.base = next;
    return dropped;
  }

  private lengthOf(k: (typeof KINDS)[number]): number {
    return k === "snapshots" ? this.snapshots.length : this[k].length;
  }

  /** The seal of the `i`-th record of `kind` in the lists (log order), as the scorer's input rows index them. */
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
