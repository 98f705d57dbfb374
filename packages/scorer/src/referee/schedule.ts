import { InvalidInputError } from "../errors";
import { OUTCOME_UNITS_PER_RETURN } from "./constants";
import { compareCodePoints } from "./code-point-order";
import type { ParsedPrediction, ParsedRefereeInput } from "./input";
import { type MuTable, rawMove } from "./mu";
import { roundHalfEven } from "./round-half-even";

/** A call whose slot + horizon has a close: it is scored, and the monkeys shadow it. */
export interface ScoredCall {
  readonly prediction: ParsedPrediction;
  readonly raw: number;
  readonly mu: number;
  /** r the call would earn if it said "up": (raw − mu) × (size / 100). */
  readonly upOutcome: number;
  /** upOutcome in integer units of 10⁻¹², rounded half to even: what is summed. */
  readonly upUnits: number;
  /** +1 for up, −1 for down. */
  readonly sign: 1 | -1;
}

/** An agent's scored calls in schedule order, and how many calls still wait for a close. */
export interface AgentSchedule {
  readonly agent: string;
  readonly calls: readonly ScoredCall[];
  readonly pendingCalls: number;
}

/** Schedule order: slot, then pair (code point order), then horizon, then input row. */
export function compareSchedule(a: ParsedPrediction, b: ParsedPrediction): number {
  return (
    a.slotHour - b.slotHour || compareCodePoints(a.pair, b.pair) || a.horizon_h - b.horizon_h || a.row - b.row
  );
}

/** The outcome units of an "up" call: round-half-even((raw − mu) × (size / 100) × 10¹²). */
export function upUnitsOf(raw: number, mu: number, size: number): { upOutcome: number; upUnits: number } {
  const upOutcome = (raw - mu) * (size / 100);
  return { upOutcome, upUnits: roundHalfEven(upOutcome * OUTCOME_UNITS_PER_RETURN) };
}

/** Scores one agent's predictions (any order) against the closes and the mu table. */
export function agentSchedule(
  input: ParsedRefereeInput,
  mu: MuTable,
  agent: string,
  predictions: readonly ParsedPrediction[],
): AgentSchedule {
  const calls: ScoredCall[] = [];
  let pendingCalls = 0;
  for (const prediction of [...predictions].sort(compareSchedule)) {
    const closes = input.closes.get(prediction.pair)!;
    const later = closes.get(prediction.slotHour + prediction.horizon_h);
    const muValue = mu.get(prediction.pair)?.get(prediction.horizon_h)?.mu;
    if (later === undefined || muValue === undefined || muValue === null) {
      pendingCalls++;
      continue;
    }
    const raw = rawMove(closes.get(prediction.slotHour)!, later);
    const sign = prediction.direction === "up" ? 1 : -1;
    const outcome = upUnitsOf(raw, muValue, prediction.size);
    if (!Number.isFinite(outcome.upUnits)) {
      throw new InvalidInputError(
        `predictions[${prediction.row}]`,
        "outcome out of range: closes too far apart",
      );
    }
    calls.push({ prediction, raw, mu: muValue, sign, ...outcome });
  }
  return { agent, calls, pendingCalls };
}
