import type { Hex32 } from "../hex";
import { MerkleRootBuilder } from "../merkle/root";
import { seal } from "../seal";
import type { CallInput, DecisionInput, TradeInput } from "./types";

/**
 * The manifest format that binds every input by a Merkle root over its seals and names the log
 * size its inputs were read below. A manifest without `manifest_version` is version 1: it binds
 * the snapshots by root and decisions, trades and calls by count only (it still verifies).
 */
export const MANIFEST_VERSION = 2;

/** The roots a version-2 manifest carries beside the snapshot root (RFC 6962, as the log). */
export interface InputRoots {
  /** Decisions in the season, in the order given (the engine gives log order). */
  readonly decision_root: Hex32;
  /** Trades in the season, in time order (ties keep the order given). */
  readonly trade_root: Hex32;
  /** Calls resolved in the season (voids included), in the order given. */
  readonly call_count: number;
  readonly call_root: Hex32;
  /** The log size the inputs were read below; null when they come from a file, not a log. */
  readonly inputs_log_size: number | null;
}

type Sealable = DecisionInput | TradeInput | CallInput;

/** The seal a manifest names for an input row: its given `seal` (the stored record's), else seal(row). */
export function sealInput(row: Sealable): Hex32 {
  return row.seal ?? seal(row);
}

/** RFC 6962 root over the rows' seals, in the order given. */
export function inputRoot(rows: readonly Sealable[], list: string): Hex32 {
  const root = new MerkleRootBuilder();
  for (const row of rows) root.addHex(sealInput(row), list);
  return root.root();
}

/** The version-2 input roots of one agent's in-season rows, each list in the order the scorer reads it. */
export function inputRoots(
  rows: {
    readonly decisions: readonly DecisionInput[];
    readonly trades: readonly TradeInput[];
    readonly calls: readonly CallInput[];
  },
  inputsLogSize: number | null,
): InputRoots {
  return {
    decision_root: inputRoot(rows.decisions, "decisions (seal)"),
    trade_root: inputRoot(rows.trades, "trades (seal)"),
    call_count: rows.calls.length,
    call_root: inputRoot(rows.calls, "calls (seal)"),
    inputs_log_size: inputsLogSize,
  };
}
