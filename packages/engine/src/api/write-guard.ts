import type { FastifyInstance, FastifyRequest } from "fastify";
import { assertAcceptingWrites } from "../modes/guard";
import { FinalNoticeSealedError, WindingDownError } from "../modes/errors";
import type { ApiDeps } from "./deps";
import { ApiError } from "./errors";

/** Methods that only read: everything else is a write. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Once the system winds down, every write endpoint (today `POST /api/v1/records`, and any added
 * later) answers 410 with the reason before its handler runs, so nothing is stored; reads and
 * proofs are still served. `checkedElsewhere`: writes another app checks (the record writer
 * thread's own guard, on its own connection, answers record submissions alike).
 */
export function installWriteGuard(
  app: FastifyInstance,
  deps: Pick<ApiDeps, "store">,
  checkedElsewhere?: (request: FastifyRequest) => boolean,
): void {
  app.addHook("onRequest", async (request) => {
    if (READS.has(request.method) || checkedElsewhere?.(request)) return;
    await refuseWritesWhenWindingDown(deps);
  });
}

/** Throws the 410 a write gets once the system winds down (the guard above, for one write). */
export async function refuseWritesWhenWindingDown(deps: Pick<ApiDeps, "store">): Promise<void> {
  try {
    await assertAcceptingWrites(deps.store.db);
  } catch (error) {
    if (error instanceof WindingDownError || error instanceof FinalNoticeSealedError)
      throw new ApiError(error.status, error.code, error.shortMessage);
    throw error;
  }
}
