/**
 * An ingest worker that stops on cue, for the pool's crash tests: a submission whose agentId is
 * "crash-always" throws out of the worker every time; "crash-once" ends the first worker that
 * sees it (the file AUGUR_TEST_CRASH_MARKER marks that it happened). Everything else is answered
 * as the real worker answers it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { answerJob, type IngestJob } from "../../src/records/ingest-pool";

const port = parentPort!;
port.on("message", (job: IngestJob) => {
  const agentId = (job.submission.message as { agentId?: unknown }).agentId;
  if (agentId === "crash-always") throw new Error("worker crash on cue");
  const marker = process.env.AUGUR_TEST_CRASH_MARKER;
  if (agentId === "crash-once" && marker && !existsSync(marker)) {
    writeFileSync(marker, "crashed");
    process.exit(1);
  }
  port.postMessage(answerJob(job));
});
