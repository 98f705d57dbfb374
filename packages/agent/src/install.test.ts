import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";

interface LockEntry {
  readonly link?: boolean;
  readonly resolved?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

const root = join(__dirname, "..", "..", "..");
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  packages: Readonly<Record<string, LockEntry>>;
};

/** Where npm finds `name` from the package installed at `from` (nested first, then hoisted). */
function locate(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/node_modules/")))) {
    const path = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    const entry = lock.packages[path];
    if (entry) return entry.link ? entry.resolved! : path;
    if (!dir) return undefined;
  }
}

/** Every package `npm i` installs for the package at `start` (a lock path), by name. */
function closure(start: string): string[] {
  const names = new Set<string>();
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const entry = lock.packages[at]!;
    // Optional and peer dependencies count when the lock holds them (npm installs those).
    const maybe = Object.keys({ ...entry.peerDependencies, ...entry.optionalDependencies });
    for (const name of [...maybe, ...Object.keys(entry.dependencies ?? {})]) {
      const path = locate(at, name);
      if (path === undefined && maybe.includes(name)) continue;
      if (path === undefined) throw new Error(`package-lock.json has no ${name} reachable from ${at}`);
      names.add(name);
      queue.push(path);
    }
  }
  return [...names].sort();
}

describe("@augur/agent installs without the service", () => {
  const installed = closure("packages/agent");

  it("walks the real dependency tree (the SDK's own dependencies and theirs are in it)", () => {
    expect(installed).to.include.members(["@augur/records", "@augur/scorer", "ethers", "canonicalize"]);
    // ethers' own dependencies: the walk follows packages past the workspace.
    expect(installed).to.include.members(["@noble/curves", "ws"]);
  });

  it("pulls in no server, database or engine package", () => {
    for (const name of ["@augur/engine", "fastify", "pg", "better-sqlite3", "kysely", "pino"]) {
      expect(installed, name).not.to.include(name);
    }
  });

  it("the engine's closure does hold them (the check can fail)", () => {
    expect(closure("packages/engine")).to.include.members(["fastify", "pg", "better-sqlite3"]);
  });
});
