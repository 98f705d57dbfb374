/**
 * A record writer thread that stops on cue, for the writer's crash test: a submission whose body
 * contains "crash-writer" throws out of the thread before the writer sees it. Everything else is
 * answered as the real thread answers it.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { RecordWriterData, WriterRequest } from "../../src/api/record-writer";
import { runRecordWriter } from "../../src/api/record-writer-thread";

const port = parentPort!;
port.on("message", (request: WriterRequest) => {
  if (request.kind === "write" && Buffer.from(request.body ?? []).includes("crash-writer"))
    throw new Error("record writer crash on cue");
});
void runRecordWriter(port, workerData as RecordWriterData);
