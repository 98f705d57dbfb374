import {
  type SeasonAgentRecords,
  type SeasonHeader,
  SeasonScorer,
  type UnrankedRow,
} from "@augur/scorer/src/augur/season";
import type { CallInput, DecisionInput, SnapshotInput, TradeInput } from "@augur/scorer/src/augur/types";
import { LISTS, type ListName, type SeasonIndex } from "./season-index";

/**
 * A batch of a season's agents as it crosses to a score worker (cycle/score-pool.ts): their rows,
 * agent after agent, as columns in buffers that are moved, not copied (`transfer`): a number as its
 * float64, a string as its place in the worker's table of strings (`strings` holds the strings
 * this batch adds to it), a seal as its 32 bytes. An agent's `agent` field is not sent: it is the
 * agent's id. The worker makes an agent's rows only when it scores that agent, so they die young.
 * JSON text or a structured clone of every row cost the worker (parsing, then collecting half a
 * season of objects that outlive the young generation) more CPU than scoring them.
 */
export interface EncodedShare {
  /** The agents of the batch, in the season's order. */
  readonly agents: readonly string[];
  /** Strings new to the worker's table, appended in this order. */
  readonly strings: readonly string[];
  readonly lists: Readonly<Record<ListName, EncodedRows>>;
}

/** One list's rows, field by field (each list's fields in `ENCODE` and `DECODE`). */
interface EncodedRows {
  /** The batch's j-th agent's rows are rows offsets[j] to offsets[j + 1] (excluded). */
  readonly offsets: Int32Array;
  /** Per text field, each row's place in the string table; a decimal given as a number has -1. */
  readonly text: readonly Int32Array[];
  /** Per number or decimal field, each row's value (a decimal given as text: unused). */
  readonly number: readonly Float64Array[];
  /** 32 bytes a row, and which rows carry a seal (1): both empty when none does. */
  readonly seals: Uint8Array;
  readonly present: Uint8Array;
}

const NO_TEXT = -1;

/** Columns being written for one list of one batch. */
class Columns {
  readonly text: Int32Array[];
  readonly number: Float64Array[];
  /** Made at the first seal: a season read from a file usually has none. */
  private seals = new Uint8Array(0);
  private present = new Uint8Array(0);
  private sealBytes = Buffer.alloc(0);

  constructor(
    private readonly count: number,
    texts: number,
    numbers: number,
    readonly place: (value: string) => number,
  ) {
    this.text = Array.from({ length: texts }, () => new Int32Array(count));
    this.number = Array.from({ length: numbers }, () => new Float64Array(count));
  }
  /** A decimal: its number in column `n`, or its text's place in column `t`. */
  decimal(t: number, n: number, i: number, value: number | string): void {
    if (typeof value === "number") {
      this.number[n]![i] = value;
      this.text[t]![i] = NO_TEXT;
    } else this.text[t]![i] = this.place(value);
  }
  seal(i: number, seal: string | undefined): void {
    if (seal === undefined) return;
    if (this.present.length === 0) {
      this.seals = new Uint8Array(32 * this.count);
      this.present = new Uint8Array(this.count);
      this.sealBytes = Buffer.from(this.seals.buffer);
    }
    this.present[i] = 1;
    this.sealBytes.write(seal.slice(2), 32 * i, "hex");
  }
  rows(offsets: Int32Array): EncodedRows {
    const { text, number, seals, present } = this;
    return { offsets, text, number, seals, present };
  }
  buffers(): ArrayBuffer[] {
    return [...this.text, ...this.number, this.seals, this.present].map((a) => a.buffer as ArrayBuffer);
  }
}

/**
 * Each list's columns (text, number) and one row written into them, field by field as literals: a
 * row is read once (the rows lie scattered in memory) and each field's access stays monomorphic.
 * A field added to a row is added here and in `DECODE`, or the round trip (share-codec.test.ts)
 * loses it.
 */
const ENCODE: {
  [L in ListName]: { texts: number; numbers: number; write: (c: Columns, i: number, row: never) => void };
} = {
  snapshots: {
    texts: 3,
    numbers: 3,
    write: (c, i, r: SnapshotInput) => {
      c.text[0]![i] = c.place(r.at);
      c.decimal(1, 0, i, r.nav);
      c.decimal(2, 1, i, r.flow);
      c.number[2]![i] = r.invested;
      c.seal(i, r.seal);
    },
  },
  decisions: {
    texts: 4,
    numbers: 0,
    write: (c, i, r: DecisionInput) => {
      c.text[0]![i] = c.place(r.at);
      c.text[1]![i] = c.place(r.decider);
      c.text[2]![i] = c.place(r.asset);
      c.text[3]![i] = c.place(r.action);
      c.seal(i, r.seal);
    },
  },
  trades: {
    texts: 5,
    numbers: 2,
    write: (c, i, r: TradeInput) => {
      c.text[0]![i] = c.place(r.at);
      c.text[1]![i] = c.place(r.asset);
      c.text[2]![i] = c.place(r.side);
      c.decimal(3, 0, i, r.quantity);
      c.decimal(4, 1, i, r.price);
      c.seal(i, r.seal);
    },
  },
  calls: {
    texts: 2,
    numbers: 1,
    write: (c, i, r: CallInput) => {
      c.text[0]![i] = c.place(r.resolved_at);
      c.number[0]![i] = r.confidence;
      c.text[1]![i] = c.place(r.outcome);
      c.seal(i, r.seal);
    },
  },
};

/**
 * Writes batches of one season's agents for one worker: the strings the worker has been sent are
 * remembered, so each batch sends only the new ones.
 */
export class ShareEncoder {
  private readonly places = new Map<string, number>();

  constructor(private readonly index: SeasonIndex) {}

  /** The batch of the agents of `agents` (places in the season's agents, in order), and the buffers to move. */
  encode(agents: readonly number[]): { share: EncodedShare; transfer: ArrayBuffer[] } {
    const { places, index } = this;
    const strings: string[] = [];
    const place = (value: string) => {
      let at = places.get(value);
      if (at === undefined) {
        places.set(value, (at = places.size));
        strings.push(value);
      }
      return at;
    };
    const transfer: ArrayBuffer[] = [];
    const lists = {} as Record<ListName, EncodedRows>;
    for (const list of LISTS) {
      const offsets = new Int32Array(agents.length + 1);
      agents.forEach((k, j) => (offsets[j + 1] = offsets[j]! + index.count(list, k)));
      const { texts, numbers, write } = ENCODE[list];
      const columns = new Columns(offsets[agents.length]!, texts, numbers, place);
      let i = 0;
      for (const k of agents) index.forEachRow(list, k, (row) => write(columns, i++, row as never));
      lists[list] = columns.rows(offsets);
      transfer.push(offsets.buffer, ...columns.buffers());
    }
    return { share: { agents: agents.map((k) => index.agentId(k)), strings, lists }, transfer };
  }
}

/** `agents`' batch, encoded for a worker that has no strings yet. */
export function encodeShare(
  index: SeasonIndex,
  agents: readonly number[],
): { share: EncodedShare; transfer: ArrayBuffer[] } {
  return new ShareEncoder(index).encode(agents);
}

/** A row's seal, when it carries one. */
function sealOf(rows: EncodedRows, i: number): string | undefined {
  if (rows.present.length === 0 || rows.present[i] !== 1) return undefined;
  return `0x${Buffer.from(rows.seals.buffer, rows.seals.byteOffset).toString("hex", 32 * i, 32 * i + 32)}`;
}

/** A decimal read back: its text when it was given as one, else its number. */
const decimal = (t: Int32Array, n: Float64Array, strings: readonly string[], i: number) =>
  t[i] === NO_TEXT ? n[i]! : strings[t[i]!]!;

/** Each list's row read back, written as a literal: every row of a list has one shape. */
const DECODE: {
  [L in ListName]: (r: EncodedRows, s: readonly string[], agent: string, i: number) => object;
} = {
  snapshots: ({ text: [at, nav, flow], number: [navN, flowN, invested] }, s, agent, i) => ({
    agent,
    at: s[at![i]!]!,
    nav: decimal(nav!, navN!, s, i),
    flow: decimal(flow!, flowN!, s, i),
    invested: invested![i]!,
  }),
  decisions: ({ text: [at, decider, asset, action] }, s, agent, i) => ({
    agent,
    at: s[at![i]!]!,
    decider: s[decider![i]!]!,
    asset: s[asset![i]!]!,
    action: s[action![i]!]!,
  }),
  trades: ({ text: [at, asset, side, quantity, price], number: [quantityN, priceN] }, s, agent, i) => ({
    agent,
    at: s[at![i]!]!,
    asset: s[asset![i]!]!,
    side: s[side![i]!]!,
    quantity: decimal(quantity!, quantityN!, s, i),
    price: decimal(price!, priceN!, s, i),
  }),
  calls: ({ text: [resolvedAt, outcome], number: [confidence] }, s, agent, i) => ({
    agent,
    resolved_at: s[resolvedAt![i]!]!,
    confidence: confidence![i]!,
    outcome: s[outcome![i]!]!,
  }),
};

/**
 * The batch's j-th agent's records, made from the columns; `strings`: the worker's string table
 * (every batch's `strings` so far, appended in order).
 */
export function decodeAgent(share: EncodedShare, j: number, strings: readonly string[]): SeasonAgentRecords {
  const agent = share.agents[j]!;
  const records = {} as Record<ListName, object[]>;
  for (const list of LISTS) {
    const encoded = share.lists[list];
    const build = DECODE[list];
    const rows: object[] = [];
    for (let i = encoded.offsets[j]!; i < encoded.offsets[j + 1]!; i++) {
      const row = build(encoded, strings, agent, i) as { seal?: string };
      const seal = sealOf(encoded, i);
      if (seal !== undefined) row.seal = seal;
      rows.push(row);
    }
    records[list] = rows;
  }
  return records as unknown as SeasonAgentRecords;
}

/**
 * A worker's scorer (cycle/score-worker.ts): the season's header (listing every agent: a creator's
 * other agents stay known) and the string table its batches have built so far.
 */
export class ShareScorer {
  private readonly scorer: SeasonScorer;
  private readonly strings: string[] = [];

  constructor(header: SeasonHeader) {
    this.scorer = new SeasonScorer(header);
  }

  /** The rows of the batch's agents, scored one agent at a time, in the batch's order. */
  score(share: EncodedShare): UnrankedRow[] {
    for (const value of share.strings) this.strings.push(value);
    return share.agents.map((agent, j) => this.scorer.scoreAgent(agent, decodeAgent(share, j, this.strings)));
  }
}
