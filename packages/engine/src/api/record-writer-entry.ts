/** The record writer's thread (api/record-writer.ts starts it). */
import { parentPort, workerData } from "node:worker_threads";
import type { RecordWriterData } from "./record-writer";
import { runRecordWriter } from "./record-writer-thread";

void runRecordWriter(parentPort!, workerData as RecordWriterData);
