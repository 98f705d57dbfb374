/**
 * An ingest worker's thread (records/ingest-pool.ts starts it): answers each job the pool posts.
 */
import { parentPort } from "node:worker_threads";
import { answerJob, nameThisThread, type IngestJob } from "./ingest-pool";

const port = parentPort!;
nameThisThread("augur-check");
port.on("message", (job: IngestJob) => port.postMessage(answerJob(job)));
