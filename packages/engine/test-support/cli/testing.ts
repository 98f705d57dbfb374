import { PassThrough, Readable } from "node:stream";
import type { CommandIo } from "../../src/cli/command";

/** Fake streams for running a command in-process: stdin from `input`, outputs captured. */
export function fakeIo(input = ""): CommandIo & { out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  return { stdin: Readable.from([input]), stdout, stderr, out: () => out, err: () => err };
}
