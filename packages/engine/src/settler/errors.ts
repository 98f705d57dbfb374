import { AugurError } from "@augur/scorer";

/**
 * One call the settler could not resolve this pass: its simulation reverted for a reason other
 * than "already resolved" or "not due yet", or its transaction reverted. The pass logs it and goes
 * on with the next call; the call is tried again next pass.
 */
export class SettlerCallError extends AugurError {
  override readonly name = "SettlerCallError";
  constructor(action: "settle" | "expire", callId: string, reason: string) {
    super("SETTLER_CALL", `${action} of call ${callId} failed: ${reason}`, { action, callId, reason });
  }
}
