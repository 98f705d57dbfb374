#!/usr/bin/env node
// A gate of `npm test`: no tracked file keeps a merge's conflict markers. Prettier turns a
// Markdown file's `>>>>>>>` lines into `> > > > > > >` quotes, which pass every other check
// (docs/architecture.md shipped with one for a session), so both spellings are refused.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const MARKER = /^(?:<{7}|>{7})(?: |$)|^={7}$|^(?:> ){7}/;
const files = [
  ...new Set(execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean)),
];
const found = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  if (text.includes("\0")) continue; // binary
  text.split("\n").forEach((line, i) => {
    if (MARKER.test(line)) found.push(`${file}:${i + 1}: ${line.slice(0, 60)}`);
  });
}
if (found.length > 0) {
  console.error(`conflict markers left by a merge (${found.length}):\n${found.join("\n")}`);
  process.exit(1);
}
console.log(`no conflict markers in ${files.length} tracked files`);
