import type { Hex32 } from "../hex";
import { seal } from "../seal";
import { RISK_SCORE_V1 } from "./constants";
import type { RiskRow } from "./types";

/** The record a risk row is sealed as: the row plus the methodology that produced it. */
export function riskRowRecord(row: RiskRow): { methodology: string } & RiskRow {
  return { methodology: RISK_SCORE_V1.version, ...row };
}

/** sha256 of the row's canonical JSON (with its methodology), ready to append to the Merkle log. */
export function sealRiskRow(row: RiskRow): Hex32 {
  return seal(riskRowRecord(row));
}
