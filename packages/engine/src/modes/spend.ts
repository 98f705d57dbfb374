import { describeCause } from "./describe";
import { SpendRefusedError } from "./errors";
import type { ModeState } from "./state";
import type { Mode } from "./timeline";

/**
 * Whose spend it is. `operator`: the project's own funds (house agents' funding and stakes,
 * seasons): refused outside active mode, since maintenance means "no new spend goes in".
 * `any`: an outside agent's own money; maintenance keeps the ledger running for it, but once
 * winding down the ledger accepts no new records, so a new stake could only be stranded.
 */
export type SpendScope = "operator" | "any";

/** The refusal for `action` in `state`, or null when the mode allows it. */
export function spendRefusal(
  state: Pick<ModeState, "mode" | "since" | "cause">,
  action: string,
  scope: SpendScope = "operator",
): SpendRefusedError | null {
  if (state.mode === "active") return null;
  if (state.mode === "maintenance" && scope === "any") return null;
  const where =
    state.mode === "maintenance"
      ? "in maintenance mode"
      : state.mode === "archived"
        ? "archived"
        : "winding down";
  return new SpendRefusedError(
    `refused: ${action} is new spend, and the system is ${where} since ${state.since} (${describeCause(state.cause)})`,
    { mode: state.mode, since: state.since, action },
  );
}

const MODES: readonly Mode[] = ["active", "maintenance", "wind-down", "archived"];

/**
 * Reads the mode from an engine's `GET /api/v1/mode` and refuses `action` as `spendRefusal` does.
 * Fails closed: an engine that cannot be reached, or answers something else than a mode, refuses.
 */
export async function assertMaySpendAt(
  origin: string,
  action: string,
  scope: SpendScope = "operator",
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const url = modeUrl(origin, action);
  const unread = (why: string) =>
    new SpendRefusedError(`refused: ${action} is spend, and the mode could not be read from ${url}: ${why}`, {
      action,
      url,
    });
  let body: unknown;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw unread(`HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    if (error instanceof SpendRefusedError) throw error;
    // fetch says "fetch failed" and keeps the reason (ECONNREFUSED, a DNS error) in its cause.
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
    throw unread(error instanceof Error ? `${error.message}${cause}` : String(error));
  }
  const state = body as Partial<ModeState> | null;
  if (
    typeof state !== "object" ||
    state === null ||
    !MODES.includes(state.mode as Mode) ||
    !(state.since === null || typeof state.since === "string")
  ) {
    throw unread("the answer is not a mode (expected the body of GET /api/v1/mode)");
  }
  const refused = spendRefusal(
    { mode: state.mode!, since: state.since, cause: state.cause ?? null },
    action,
    scope,
  );
  if (refused) throw refused;
}

/** `<origin>/api/v1/mode` (under the origin's path); an origin that is not an http(s) URL is refused before anything is sent. */
function modeUrl(origin: string, action: string): string {
  let parsed: URL;
  try {
    parsed = new URL(origin.trim());
  } catch {
    parsed = new URL("invalid:");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new SpendRefusedError(
      `refused: ${action} needs the engine's origin as an http(s) URL (e.g. https://augur.example), got "${origin}"`,
      { action, origin },
    );
  }
  // Relative to the origin's path, so an engine served under a prefix is read there.
  const base = parsed.pathname.endsWith("/") ? parsed.href : `${parsed.href}/`;
  return new URL("api/v1/mode", base).toString();
}
