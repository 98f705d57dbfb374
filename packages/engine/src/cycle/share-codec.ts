import {
  type SeasonAgentRecords,
  type SeasonHeader,
  SeasonScorer,
  type UnrankedRow,
} from "@augur/scorer/src/augur/season";
import { LISTS, type ListName, type SeasonIndex } from "./season-index";

/**
 * A share of a season as it crosses to a score worker (cycle/score-pool.ts): the header as is, and
 * its agents' rows, agent after agent, as columns in buffers that are moved, not copied
 * (`transfer`): a number as its float64, a string as its place in one table of the share's
 * distinct strings, a seal as its 32 bytes. The worker makes an agent's rows only when it scores
 * that agent, so they die young. JSON text or a structured clone of every row cost the worker
 * (parsing, then collecting half a season of objects that outlive the young generation) more CPU
 * than scoring them.
 */
export interface EncodedShare {
  readonly header: SeasonHeader;
  /** The agents the worker scores, in the season's order. */
  readonly agents: readonly string[];
  readonly strings: readonly string[];
  readonly lists: Readonly<Record<ListName, EncodedRows>>;
}

/** One list's rows, field by field: a string as its place in `strings`, a number as is. */
interface EncodedRows {
  readonly count: number;
  /** The share's j-th agent's rows are rows offsets[j] to offsets[j + 1] (excluded). */
  readonly offsets: Int32Array;
  /** Per text field, each row's string place. */
  readonly text: Readonly<Record<string, Int32Array>>;
  /** Per number field, each row's value; a decimal given as a string has its place in `text`, else -1 there. */
  readonly number: Readonly<Record<string, Float64Array>>;
  /** 32 bytes a row, and which rows carry a seal (1): both empty when none does. */
  readonly seals: Uint8Array;
  readonly present: Uint8Array;
}

/**
 * Every field a validated row may hold (`validateSeasonInput` refuses any other), by list: a
 * text, a number, or a decimal (a number or a string), besides the optional seal. A field added
 * to a row is added here and in `ROW`, or the round trip (share-codec.test.ts) loses it.
 */
const FIELDS = {
  snapshots: { text: ["agent", "at"], number: ["invested"], decimal: ["nav", "flow"] },
  decisions: { text: ["agent", "at", "decider", "asset", "action"], number: [], decimal: [] },
  trades: { text: ["agent", "at", "asset", "side"], number: [], decimal: ["quantity", "price"] },
  calls: { text: ["agent", "resolved_at", "outcome"], number: ["confidence"], decimal: [] },
} as const satisfies Record<
  ListName,
  { text: readonly string[]; number: readonly string[]; decimal: readonly string[] }
>;
const NO_TEXT = -1;

/** Reads one list's fields back, row by row. */
class Fields {
  constructor(
    private readonly rows: EncodedRows,
    private readonly strings: readonly string[],
  ) {}
  text(field: string, i: number): string {
    return this.strings[this.rows.text[field]![i]!]!;
  }
  number(field: string, i: number): number {
    return this.rows.number[field]![i]!;
  }
  decimal(field: string, i: number): number | string {
    const given = this.rows.text[field]![i]!;
    return given === NO_TEXT ? this.rows.number[field]![i]! : this.strings[given]!;
  }
}

/** Each list's row read back, written as a literal: every row of a list has one shape. */
const ROW: Readonly<Record<ListName, (f: Fields, i: number) => Record<string, unknown>>> = {
  snapshots: (f, i) => ({
    agent: f.text("agent", i),
    at: f.text("at", i),
    nav: f.decimal("nav", i),
    flow: f.decimal("flow", i),
    invested: f.number("invested", i),
  }),
  decisions: (f, i) => ({
    agent: f.text("agent", i),
    at: f.text("at", i),
    decider: f.text("decider", i),
    asset: f.text("asset", i),
    action: f.text("action", i),
  }),
  trades: (f, i) => ({
    agent: f.text("agent", i),
    at: f.text("at", i),
    asset: f.text("asset", i),
    side: f.text("side", i),
    quantity: f.decimal("quantity", i),
    price: f.decimal("price", i),
  }),
  calls: (f, i) => ({
    agent: f.text("agent", i),
    resolved_at: f.text("resolved_at", i),
    confidence: f.number("confidence", i),
    outcome: f.text("outcome", i),
  }),
};

/** Writes one list's rows into its columns. */
class Writer {
  readonly text: Record<string, Int32Array> = {};
  readonly number: Record<string, Float64Array> = {};
  /** Made at the first seal: a season read from a file usually has none. */
  private seals = new Uint8Array(0);
  private present = new Uint8Array(0);
  private sealBytes = Buffer.alloc(0);

  constructor(
    readonly count: number,
    list: ListName,
    private readonly place: (value: string) => number,
  ) {
    const { text, number, decimal } = FIELDS[list];
    for (const field of [...text, ...decimal]) this.text[field] = new Int32Array(count);
    for (const field of [...number, ...decimal]) this.number[field] = new Float64Array(count);
  }
  writeText(field: string, i: number, value: string): void {
    this.text[field]![i] = this.place(value);
  }
  writeNumber(field: string, i: number, value: number): void {
    this.number[field]![i] = value;
  }
  writeDecimal(field: string, i: number, value: number | string): void {
    if (typeof value === "number") {
      this.number[field]![i] = value;
      this.text[field]![i] = NO_TEXT;
    } else this.text[field]![i] = this.place(value);
  }
  writeSeal(i: number, seal: string | undefined): void {
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
    const { count, text, number, seals, present } = this;
    return { count, offsets, text, number, seals, present };
  }
  buffers(): ArrayBuffer[] {
    return [...Object.values(this.text), ...Object.values(this.number), this.seals, this.present].map(
      (array) => array.buffer as ArrayBuffer,
    );
  }
}

/** One row written, every field at once (a row is read once: the rows lie scattered in memory). */
function writeRow(w: Writer, i: number, row: Record<string, unknown>, list: ListName): void {
  const { text, number, decimal } = FIELDS[list];
  for (const field of text) w.writeText(field, i, row[field] as string);
  for (const field of number) w.writeNumber(field, i, row[field] as number);
  for (const field of decimal) w.writeDecimal(field, i, row[field] as number | string);
  w.writeSeal(i, row.seal as string | undefined);
}

/**
 * The share of the agents of `agents` (places in the season's agents, in order) of a validated
 * season (indexed by `index`), and the buffers to move.
 */
export function encodeShare(
  input: SeasonHeader,
  index: SeasonIndex,
  agents: readonly number[],
): { share: EncodedShare; transfer: ArrayBuffer[] } {
  const places = new Map<string, number>();
  const strings: string[] = [];
  const place = (value: string) => {
    let at = places.get(value);
    if (at === undefined) places.set(value, (at = strings.push(value) - 1));
    return at;
  };
  const transfer: ArrayBuffer[] = [];
  const lists = {} as Record<ListName, EncodedRows>;
  for (const list of LISTS) {
    const byAgent = agents.map((k) => index.rows(list, k) as unknown as readonly Record<string, unknown>[]);
    const offsets = new Int32Array(agents.length + 1);
    byAgent.forEach((rows, j) => (offsets[j + 1] = offsets[j]! + rows.length));
    const writer = new Writer(offsets[agents.length]!, list, place);
    let i = 0;
    for (const rows of byAgent) for (const row of rows) writeRow(writer, i++, row, list);
    lists[list] = writer.rows(offsets);
    transfer.push(offsets.buffer, ...writer.buffers());
  }
  const { season, as_of, agents: all, prior_scores, inputs_log_size } = input;
  const header: SeasonHeader = { season, as_of, agents: all, prior_scores, inputs_log_size };
  return { share: { header, agents: agents.map((k) => all[k]!.id), strings, lists }, transfer };
}

/** The rows of the share's agents, scored one agent at a time (a worker's whole work). */
export function scoreShare(share: EncodedShare): UnrankedRow[] {
  const scorer = new SeasonScorer(share.header);
  return share.agents.map((agent, j) => scorer.scoreAgent(agent, decodeAgent(share, j)));
}

/** The share's j-th agent's records, made from the columns. */
export function decodeAgent(share: EncodedShare, j: number): SeasonAgentRecords {
  const records = {} as Record<ListName, Record<string, unknown>[]>;
  for (const list of LISTS) {
    const encoded = share.lists[list];
    const { offsets, seals, present } = encoded;
    const fields = new Fields(encoded, share.strings);
    const bytes = Buffer.from(seals.buffer, seals.byteOffset, seals.byteLength);
    const build = ROW[list];
    const rows: Record<string, unknown>[] = [];
    for (let i = offsets[j]!; i < offsets[j + 1]!; i++) {
      const row = build(fields, i);
      if (present.length > 0 && present[i] === 1)
        row.seal = `0x${bytes.toString("hex", 32 * i, 32 * i + 32)}`;
      rows.push(row);
    }
    records[list] = rows;
  }
  return records as unknown as SeasonAgentRecords;
}
