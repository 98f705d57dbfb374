import type { ModeState } from "./state";
import type { ModeCause } from "./timeline";

const short = (seal: string) => `${seal.slice(0, 10)}…`;

/** One plain sentence naming why the mode changed, with the record it rests on. */
export function describeCause(cause: ModeCause | null): string {
  if (!cause) return "no change recorded";
  switch (cause.kind) {
    case "trigger":
      switch (cause.trigger) {
        case "volume":
          return `organic volume stayed under the floor for 30 consecutive days (stewardship day ${cause.day}, record ${short(cause.seal)})`;
        case "volume-recovered":
          return `organic volume recovered (stewardship day ${cause.day}, record ${short(cause.seal)})`;
        case "holders":
          return `distinct holders fell by 15 % or more within 30 days (stewardship day ${cause.day}, record ${short(cause.seal)})`;
        case "both":
          return `the holder and volume triggers both fired within 30 days (stewardship day ${cause.day}, record ${short(cause.seal)})`;
      }
      break;
    case "operator":
      return `the operator's decision, noticed on ${cause.noticed} (notice ${short(cause.notice)}): ${cause.reason}`;
    case "final-anchor":
      return `the final anchor #${cause.anchorIndex} covers all ${cause.treeSize} records (tx ${short(cause.txHash)}, block ${cause.blockNumber})`;
  }
}

/** "maintenance mode since 2027-02-09 (…cause…)", as errors and banners say it. */
export function describeMode(state: ModeState): string {
  const names = {
    active: "active",
    maintenance: "maintenance mode",
    "wind-down": "winding down",
    archived: "archived",
  } as const;
  if (state.since === null) return names[state.mode];
  return `${names[state.mode]} since ${state.since} (${describeCause(state.cause)})`;
}
