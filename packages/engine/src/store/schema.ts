import type { ColumnType, Generated } from "kysely";

/**
 * The tables of the engine's store, as Kysely sees them. Times are unix seconds; 256-bit amounts
 * are decimal strings; hashes and addresses are lowercase `0x` hex; JSON is stored as its
 * canonical text, byte for byte the text that was sealed.
 */
export interface Database {
  log_writer: LogWriterTable;
  seasons: SeasonsTable;
  records: RecordsTable;
  record_formulas: RecordFormulasTable;
  agents: AgentsTable;
  merkle_leaves: MerkleLeavesTable;
  merkle_nodes: MerkleNodesTable;
  anchors: AnchorsTable;
  keeper_attempts: KeeperAttemptsTable;
  scores: ScoresTable;
  risk_rows: RiskRowsTable;
  risk_readings: RiskReadingsTable;
  risk_hours: RiskHoursTable;
  risk_capital: RiskCapitalTable;
  agent_retirements: AgentRetirementsTable;
  hourly_closes: HourlyClosesTable;
  mode_records: ModeRecordsTable;
  final_notice: FinalNoticeTable;
  consensus_rounds: ConsensusRoundsTable;
  indexer_cursors: IndexerCursorsTable;
  indexer_blocks: IndexerBlocksTable;
  anchor_events: AnchorEventsTable;
  call_events: CallEventsTable;
  stewardship_transfers: StewardshipTransfersTable;
  stewardship_swaps: StewardshipSwapsTable;
  stewardship_days: StewardshipDaysTable;
  referee_boards: RefereeBoardsTable;
  record_moments: RecordMomentsTable;
  measured_hours: MeasuredHoursTable;
  carried_blocks: CarriedBlocksTable;
  carried_balances: CarriedBalancesTable;
  score_states: ScoreStatesTable;
  risk_states: FoldStatesTable;
  erasable_texts: ErasableTextsTable;
  erasures: ErasuresTable;
}

/** One row; log appends update it first, which serialises them on both backends. */
export interface LogWriterTable {
  id: number;
  version: number;
}

/** Operator configuration, not a sealed row: a season can be closed early (`closed_at`). */
export interface SeasonsTable {
  id: string;
  name: string;
  starts_at: number;
  ends_at: number;
  closed_at: number | null;
  created_at: number;
  /** From migration 011: who provides snapshots and trades (`declared` before it). */
  inputs: Generated<SeasonInputs>;
}

/** `declared`: agents post signed snapshots and trades; `measured`: the engine reads them from the chain. */
export const SEASON_INPUTS = ["declared", "measured"] as const;
export type SeasonInputs = (typeof SEASON_INPUTS)[number];

export const RECORD_KINDS = ["registration", "snapshot", "decision", "trade", "call", "score"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Every sealed record, append-only. `body` is the canonical JSON whose sha256 is `seal`. */
export interface RecordsTable {
  seal: string;
  kind: RecordKind;
  agent_id: string;
  season_id: string;
  body: string;
  /** The address that signed it (agent key); null for records the engine itself produces. */
  signer: string | null;
  signature: string | null;
  /** The creator's signature of a registration; null otherwise. */
  cosignature: string | null;
  leaf_index: number;
  received_at: number;
  /**
   * From migration 024: the formula split off `body` and stored once in record_formulas (null:
   * `body` is the whole text). Read bodies through `recordBody` (store/record-bodies.ts).
   */
  formula_seal: ColumnType<string | null, string | null | undefined, never>;
}

/** A formula object's canonical text, stored once for every record that carries it (migration 024). */
export interface RecordFormulasTable {
  /** sha256 of `text`. */
  seal: string;
  text: string;
}

export const RECORD_FORMULAS_TABLE = "record_formulas";

/** One row per (agent, season): the projection of its sealed registration record. */
export interface AgentsTable {
  id: string;
  season_id: string;
  creator: string;
  style: string;
  agent_key: string;
  registration_seal: string;
  registered_at: number;
  /** From migration 011 (null for a v1 registration): the bound wallet and how it was proven. */
  wallet: string | null;
  wallet_proof: "eoa" | "eip1271" | null;
  wallet_signature: string | null;
}

export interface MerkleLeavesTable {
  leaf_index: number;
  seal: string;
  appended_at: number;
}

/**
 * Every complete subtree of the log: `(level, idx)` covers leaves [idx·2^level, (idx+1)·2^level).
 * Level 0 holds leaf hashes. Any root or proof is a fold over O(log n) of these rows.
 */
export interface MerkleNodesTable {
  level: number;
  idx: number;
  hash: string;
}

/** A head posted to AnchorRegistry and mined with the configured confirmations. */
export interface AnchorsTable {
  anchor_index: number;
  tree_size: number;
  root: string;
  chain_id: number;
  registry: string;
  tx_hash: string;
  block_number: number;
  block_hash: string;
  anchored_at: number;
  recorded_at: number;
}

export const KEEPER_ATTEMPT_STATUSES = [
  "simulated",
  "signed",
  "broadcast",
  "mined",
  "replaced",
  "reverted",
  "failed",
  "skipped",
] as const;
export type KeeperAttemptStatus = (typeof KEEPER_ATTEMPT_STATUSES)[number];

/** The keeper's journal: one appended row per step of every attempt, never edited. */
export interface KeeperAttemptsTable {
  id: Generated<number>;
  tree_size: number;
  root: string;
  chain_id: number;
  registry: string;
  nonce: number | null;
  tx_hash: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  status: KeeperAttemptStatus;
  error: string | null;
  at: number;
  /** From migration 002: the keeper's address, the signed transaction and what it replaces. */
  sender: string | null;
  raw_tx: string | null;
  gas_limit: string | null;
  replaces: string | null;
  block_number: number | null;
  /** From migration 009: what the transaction does (null: `post`), the call it resolves, its gas. */
  action: KeeperAction | null;
  call_id: string | null;
  gas_used: string | null;
}

/** What a journalled transaction does: post a log head, settle a revealed call, expire a commit. */
export type KeeperAction = "post" | "settle" | "expire";

/** The last block the indexer has read for one contract (migration 002). */
export interface IndexerCursorsTable {
  chain_id: number;
  address: string;
  last_block: number;
}

/** The hash of every block the indexer read events from, and of each range's last block. */
export interface IndexerBlocksTable {
  chain_id: number;
  address: string;
  block_number: number;
  block_hash: string;
}

/** CallLedger Revealed/Settled/Expired events as seen (migration 003); rolled back on reorg. */
export interface CallEventsTable {
  chain_id: number;
  ledger: string;
  /** `committed` from migration 009 on (older stores hold none before their upgrade). */
  kind: "committed" | "revealed" | "settled" | "expired";
  call_id: string;
  agent: string;
  /** The event's fields as JSON (numbers above 2^53 as decimal strings). */
  payload: string;
  block_number: number;
  block_hash: string;
  block_timestamp: number;
  tx_hash: string;
  log_index: number;
  /** The sealed `call` record made from this resolution, once confirmed. */
  record_seal: string | null;
}

/** AnchorRegistry `Anchored` events as seen, confirmed or not; rolled back on reorg. */
export interface AnchorEventsTable {
  chain_id: number;
  registry: string;
  anchor_index: number;
  tree_size: number;
  root: string;
  block_number: number;
  block_hash: string;
  block_timestamp: number;
  tx_hash: string;
  log_index: number;
}

/** One score row per (agent, season, as-of); its manifest is the sealed record `seal`. */
export interface ScoresTable {
  agent_id: string;
  season_id: string;
  as_of: number;
  formula: string;
  score: number | null;
  reason: string | null;
  rank: number | null;
  terms: string;
  seal: string;
  created_at: number;
}

/** One sealed vault risk row per (season, as-of, vault); see migration 004. */
export interface RiskRowsTable {
  season_id: string;
  as_of: number;
  vault_id: string;
  score: number | null;
  reason: string | null;
  measurable_share: number;
  /** JSON of the six readings (each 0–1 or null). */
  components: string;
  tvl_usd: number;
  body: string;
  seal: string;
  leaf_index: number;
  created_at: number;
}

export const RISK_ROWS_TABLE = "risk_rows";

/** One sealed component reading per (season, as-of, vault, component); see migration 014. */
export interface RiskReadingsTable {
  season_id: string;
  as_of: number;
  vault_id: string;
  component: string;
  reading: number | null;
  reason: string | null;
  body: string;
  seal: string;
  leaf_index: number;
  created_at: number;
}

export const RISK_READINGS_TABLE = "risk_readings";

/**
 * One row per (season, as-of) the risk step sealed (migration 020): readings and rows are stored
 * only when they change, so this says which hours ran. `all_stored` = 1: every vault's readings and row
 * were stored that hour (the first hour, or the vault set changed).
 */
export interface RiskHoursTable {
  season_id: string;
  as_of: number;
  vaults: number;
  all_stored: number;
  created_at: number;
}

export const RISK_HOURS_TABLE = "risk_hours";

/** A vault's capital at an hour it moved and its row's seal did not (migration 022). */
export interface RiskCapitalTable {
  season_id: string;
  vault_id: string;
  as_of: number;
  tvl_usd: number;
  created_at: number;
}

export const RISK_CAPITAL_TABLE = "risk_capital";

/** One signed, sealed retirement per (season, agent); see migration 014. */
export interface AgentRetirementsTable {
  season_id: string;
  agent_id: string;
  retired_at: number;
  body: string;
  seal: string;
  signer: string;
  signature: string;
  leaf_index: number;
  received_at: number;
}

export const AGENT_RETIREMENTS_TABLE = "agent_retirements";

/** One sealed hourly close per (asset, hour), read from the PriceOracle; see migration 005. */
export interface HourlyClosesTable {
  /** The stock token, lowercase 0x address: the referee's pair key. */
  asset: string;
  /** The hour, unix seconds (a multiple of 3600). */
  at: number;
  chain_id: number;
  oracle: string;
  /** `priceAt(asset, at)`: USDG per whole token, 18 decimals, as a decimal string. */
  price18: string;
  /** price18 / 10^18 as the nearest double: the referee's close. */
  close: number;
  body: string;
  seal: string;
  leaf_index: number;
  created_at: number;
}

export const HOURLY_CLOSES_TABLE = "hourly_closes";

export const MODE_RECORD_KINDS = ["mode", "notice", "methodology", "receipt"] as const;
export type ModeRecordKind = (typeof MODE_RECORD_KINDS)[number];

/** Sealed modes, operator and methodology notices and final receipts, in write order; see migration 007. */
export interface ModeRecordsTable {
  seq: number;
  kind: ModeRecordKind;
  /** mode: in force since; notice: the day given; methodology: effective from; receipt: the day saved. */
  day: string;
  body: string;
  seal: string;
  /** The seal's leaf in the log; null for a receipt (its proof is re-running it on the chain). */
  leaf_index: number | null;
  created_at: number;
}

export const MODE_RECORDS_TABLE = "mode_records";

/** The final notice, sealed once after the archive and posted on chain; see migration 015. */
export interface FinalNoticeTable {
  id: number;
  body: string;
  seal: string;
  chain_id: number;
  registry: string;
  tx_hash: string;
  block_number: number;
  created_at: number;
}

export const FINAL_NOTICE_TABLE = "final_notice";

/** Written by the chain indexer from CallLedger `Consensus` events; rolled back on reorg. */
export interface ConsensusRoundsTable {
  asset: string;
  window_seconds: number;
  bucket: number;
  direction: "up" | "down";
  strength_bps: number;
  voters: number;
  up_weight: string;
  down_weight: string;
  block_number: number;
  block_hash: string;
  tx_hash: string;
  log_index: number;
  block_timestamp: number;
}

/** The project token's ERC-20 Transfer logs as seen (migration 006); rolled back on reorg. */
export interface StewardshipTransfersTable {
  chain_id: number;
  token: string;
  from_address: string;
  to_address: string;
  /** Base units, decimal string. */
  amount: string;
  block_number: number;
  block_hash: string;
  block_timestamp: number;
  tx_hash: string;
  log_index: number;
}

/** A monitored pool's Uniswap v3 Swap logs as seen (migration 006); rolled back on reorg. */
export interface StewardshipSwapsTable {
  chain_id: number;
  pool: string;
  sender: string;
  recipient: string;
  /** The pool's signed balance changes (positive: into the pool), decimal strings. */
  amount0: string;
  amount1: string;
  block_number: number;
  block_hash: string;
  block_timestamp: number;
  tx_hash: string;
  log_index: number;
}

/** One sealed stewardship record per UTC day (migration 006, append-only). */
export interface StewardshipDaysTable {
  /** YYYY-MM-DD, the UTC day measured: [as_of − 24 h, as_of). */
  day: string;
  as_of: number;
  chain_id: number;
  token: string;
  state: "normal" | "maintenance" | "wind-down";
  /** The confirmed block the day was measured up to (outside the seal). */
  through_block: number;
  body: string;
  seal: string;
  leaf_index: number;
  created_at: number;
}

export const STEWARDSHIP_DAYS_TABLE = "stewardship_days";

/** One sealed referee board per (season, hour) the cycle computed; see migration 008. */
export interface RefereeBoardsTable {
  season_id: string;
  /** The cycle's hour, unix seconds. */
  as_of: number;
  /** The board's inputs are the closes and calls whose log leaf is below this tree size (an anchor's). */
  log_size: number;
  /** sha256 of the input file's RFC 8785 form, as leaderboard.json's `input_seal`. */
  input_seal: string;
  body: string;
  seal: string;
  leaf_index: number;
  created_at: number;
}

export const REFEREE_BOARDS_TABLE = "referee_boards";

/**
 * One signed snapshot, decision or trade per (season, agent, kind, moment): the primary key is what
 * refuses a second, different record for the same moment (equivocation). Written with its record.
 */
export interface RecordMomentsTable {
  season_id: string;
  agent_id: string;
  kind: RecordKind;
  /** The record's own time (takenAt, decidedAt or executedAt), unix seconds. */
  moment: number;
  seal: string;
}

export const RECORD_MOMENTS_TABLE = "record_moments";

/** An hour boundary of a measured season the measure step finished (a progress mark, not sealed). */
export interface MeasuredHoursTable {
  season_id: string;
  /** The hour boundary, unix seconds. */
  at: number;
  /** When the step finished it, unix seconds. */
  measured_at: number;
}

/** The block a measured season's carried balances are at (migration 018; a cache, rewritten). */
export interface CarriedBlocksTable {
  season_id: string;
  block: number;
  hash: string;
  /** JSON array of the token addresses, in the order of every wallet's balances. */
  tokens: string;
}

/** One wallet's carried raw balances (migration 018; a cache, rewritten). */
export interface CarriedBalancesTable {
  season_id: string;
  wallet: string;
  /** JSON array of decimal strings, in `carried_blocks.tokens` order. */
  balances: string;
}

/**
 * The incremental scorer's fold of one agent's season up to a log size (migration 016, append-only).
 * Not a sealed record: a cache of work the from-scratch scorer can always redo.
 */
export interface ScoreStatesTable {
  agent_id: string;
  season_id: string;
  log_size: number;
  /** The seal of leaf log_size − 1: the row is used only while the store's log still has it. */
  last_leaf_seal: string;
  /** JSON: how many of the agent's records of each kind (log order) the state folded. */
  consumed: string;
  /** The AgentSeasonState's text (stateText) and its sha256 (sealStateText). */
  state: string;
  state_seal: string;
  created_at: number;
}

export const SCORE_STATES_TABLE = "score_states";

/**
 * The risk step's fold of one agent's book up to a log size (migration 019, append-only): the
 * same columns as score_states, `consumed` counting the snapshots and trades seen, `state` the
 * scorer's RiskFold text. A cache of work the from-scratch path can always redo.
 */
export type FoldStatesTable = ScoreStatesTable;

export const RISK_STATES_TABLE = "risk_states";

/**
 * Erasable text (migration 017): the text a sealed body's `<field>Hash` stands for, with its salt.
 * Not sealed: `augur erase` deletes the row, and the seal and every proof stay valid.
 */
export interface ErasableTextsTable {
  seal: string;
  field: string;
  salt: string;
  text: string;
  stored_at: number;
}

export const ERASABLE_TEXTS_TABLE = "erasable_texts";

/** The erasure log: which field of which record was erased, when and on what ground. Append-only. */
export interface ErasuresTable {
  seal: string;
  field: string;
  erased_at: number;
  reason: string | null;
}

export const ERASURES_TABLE = "erasures";

/** The tables whose rows the database itself refuses to update or delete. */
export const APPEND_ONLY_TABLES = [
  "records",
  "agents",
  "merkle_leaves",
  "merkle_nodes",
  "anchors",
  "keeper_attempts",
  "scores",
] as const;

/**
 * Every table of sealed rows: the append-only triggers of their migrations refuse UPDATE and
 * DELETE, and migration 012's guards refuse an INSERT over an existing key (REPLACE).
 */
export const SEALED_TABLES = [
  ...APPEND_ONLY_TABLES,
  RISK_ROWS_TABLE,
  HOURLY_CLOSES_TABLE,
  STEWARDSHIP_DAYS_TABLE,
  MODE_RECORDS_TABLE,
  REFEREE_BOARDS_TABLE,
  RECORD_MOMENTS_TABLE,
  RECORD_FORMULAS_TABLE,
  RISK_READINGS_TABLE,
  AGENT_RETIREMENTS_TABLE,
  FINAL_NOTICE_TABLE,
] as const;

/**
 * The per-agent folds (score_states, risk_states): append-only caches of work the from-scratch
 * path can redo. A fold for a key already stored is kept: on SQLite an INSERT of that key, whatever
 * its conflict clause, is skipped (the `ON CONFLICT DO NOTHING` the cycle relies on, and a
 * `REPLACE` that would swap the fold).
 */
export const FOLD_TABLES = [SCORE_STATES_TABLE, RISK_STATES_TABLE] as const;

/**
 * Every table the database keeps append-only: the sealed tables, the unsealed logs beside them
 * (erasures, the risk step's hours and capital) and the folds. UPDATE, DELETE and TRUNCATE are
 * refused by triggers, an INSERT over an existing key by guards (SQLite), and the serving role of
 * PostgreSQL may only SELECT and INSERT them.
 */
export const GUARDED_TABLES = [
  ...SEALED_TABLES,
  ERASURES_TABLE,
  RISK_HOURS_TABLE,
  RISK_CAPITAL_TABLE,
  ...FOLD_TABLES,
] as const;
