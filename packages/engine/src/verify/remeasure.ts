import { AugurError } from "@augur/scorer";
import { type HttpOptions } from "./http";
import { rpcCall } from "./json-rpc";
import type { ChainReader, Remeasure } from "./deep";

/** A stored snapshot this build cannot re-measure from the chain. */
export class NotRemeasurableError extends AugurError {
  override readonly name = "NotRemeasurableError";
  constructor(problem: string) {
    super("NOT_REMEASURABLE", problem);
  }
}

/** The chain behind `--rpc`, one JSON-RPC call at a time within the request deadline. */
export function chainReader(rpc: string, http: HttpOptions): ChainReader {
  return { call: (method, params) => rpcCall(rpc, method, params, http) };
}

/**
 * The default re-measurement. Snapshots signed by the agent (`type: "Snapshot"`) record no block:
 * nothing on chain pins them, so each one sampled fails the check, naming why. Engine-measured
 * snapshots (a new record kind carrying block, balances and prices) plug in here through the
 * same `Remeasure` signature.
 */
export const remeasureSnapshot: Remeasure = async (body) => {
  const kind = typeof body.type === "string" ? body.type : String(body.format ?? "unknown");
  if (body.type === "Snapshot")
    throw new NotRemeasurableError(
      "agent-posted (a Snapshot signed by the agent's key): it records no block, balances or prices to re-measure",
    );
  throw new NotRemeasurableError(`a ${kind} snapshot has no re-measurement in this build`);
};
