import type { ModeState } from "@augur/engine";

/** In maintenance mode the house agents act one simulated hour in this many (docs/stewardship.md). */
export const MAINTENANCE_CADENCE_HOURS = 4;

/**
 * Whether the demo's house agents act in simulated hour `hour`. Seed 002's maintenance: "house-agent
 * cadence may drop" (one hour in four) and "no new spend goes in" (no season opens, so with the
 * season over they sit out); once winding down they stop (writes are refused).
 */
export function houseAgentsAct(mode: ModeState["mode"], hour: number, seasonOpen: boolean): boolean {
  if (!seasonOpen) return false;
  return mode === "active" || (mode === "maintenance" && hour % MAINTENANCE_CADENCE_HOURS === 0);
}
