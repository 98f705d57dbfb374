import { readFile } from "node:fs/promises";
import { InvalidInputError, type Hex32 } from "@augur/scorer";
import type { CommandIo } from "./command";

/** The whole text of `file`, or of stdin when no file is named. */
export async function readInput(file: string | undefined, io: Pick<CommandIo, "stdin">): Promise<string> {
  if (file !== undefined) return readFile(file, "utf8");
  let text = "";
  io.stdin.setEncoding?.("utf8");
  for await (const chunk of io.stdin)
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  return text;
}

const SEAL_LINE = /^0x[0-9a-fA-F]{64}$/;

/**
 * One seal per line, in log order (line n is leaf n − 1). Surrounding spaces and CR are ignored,
 * hex digits are normalised to lowercase, trailing blank lines are allowed; any other line is
 * refused with its 1-based line number, since a skipped line would shift every later leaf.
 */
export function parseSealLines(text: string): Hex32[] {
  const lines = text.split("\n").map((line) => line.trim());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line, i) => {
    if (!SEAL_LINE.test(line)) {
      const shown = line.length > 80 ? `${line.slice(0, 77)}...` : line;
      throw new InvalidInputError(
        `line ${i + 1}`,
        `${JSON.stringify(shown)} is not 0x followed by 64 hex digits`,
      );
    }
    return line.toLowerCase() as Hex32;
  });
}
