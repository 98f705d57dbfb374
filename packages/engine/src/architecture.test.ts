import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * docs/architecture.md, enforced: the engine's layers, its two entry points, and the packages'
 * dependency rule. Every import of every TypeScript file is read (no type checker needed).
 */

const ROOT = resolve(__dirname, "../../..");
const SRC = join(ROOT, "packages/engine/src");

/**
 * The engine's layers, lowest first: a production file may import its own layer or a lower one,
 * never a higher one. Keep in step with the table in docs/architecture.md.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["store"],
  ["config", "chain"],
  [
    "records",
    "indexer",
    "closes",
    "measure",
    "keeper",
    "settler",
    "modes",
    "referee",
    "risk",
    "erasure",
    "evidence",
    "stewardship",
    "verify",
  ],
  ["cycle"],
  ["api", "site"],
  ["cli"],
  ["index.ts"],
];

/** Imports that break the rule and are accepted for now (none: keep it that way). */
const KNOWN_VIOLATIONS: readonly string[] = [];

/** Test helpers and benches: not production code, whichever folder they sit in. */
const TEST_SUPPORT = /(^|\/)(testing\.ts|[^/]+\.bench\.ts)$|^\.\.\/test-support\//;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules") return [];
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = text.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)["']([^"']+)["']/gm,
  );
  return [...found].map((m) => m[1]!);
}

/** A relative import of `file` as a path from the engine's src/ (`../` when it leaves src/). */
function engineTarget(file: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  return `${relative(SRC, resolve(dirname(file), spec)).replace(/\\/g, "/")}.ts`;
}

const layerOf = (path: string): number => {
  const top = path.split("/")[0]!;
  const rank = LAYERS.findIndex((layer) => layer.includes(top));
  if (rank < 0) throw new Error(`${path}: the folder ${top}/ has no layer in docs/architecture.md`);
  return rank;
};

const isTest = (path: string) => path.endsWith(".test.ts");

describe("architecture (docs/architecture.md)", () => {
  const production = tsFiles(SRC)
    .map((file) => ({ file, path: relative(SRC, file).replace(/\\/g, "/") }))
    .filter(({ path }) => !isTest(path) && !TEST_SUPPORT.test(path));

  const edges = production.flatMap(({ file, path }) =>
    specifiers(file).flatMap((spec) => {
      const target = engineTarget(file, spec);
      return target === undefined ? [] : [{ from: path, to: target }];
    }),
  );

  it("every engine folder has a layer", () => {
    for (const { path } of production) expect(() => layerOf(path), path).not.to.throw();
  });

  it("no production import runs from a lower layer to a higher one, or into test support", () => {
    const found = edges
      .filter(({ from, to }) => to.startsWith("..") || TEST_SUPPORT.test(to) || layerOf(to) > layerOf(from))
      .map(({ from, to }) => `${from} -> ${to}`);
    const unexpected = found.filter((edge) => !KNOWN_VIOLATIONS.includes(edge));
    const fixed = KNOWN_VIOLATIONS.filter((edge) => !found.includes(edge));
    expect(unexpected, "imports against the layers").to.deep.equal([]);
    expect(fixed, "KNOWN_VIOLATIONS entries that no longer occur: delete them").to.deep.equal([]);
  });

  it("nothing outside the engine imports its internals: only @augur/engine and @augur/engine/test-support", () => {
    const outside = [
      "scripts",
      "test",
      "tasks",
      "deploy",
      "packages/agent",
      "packages/records",
      "packages/scorer",
    ]
      .flatMap((dir) => tsFiles(join(ROOT, dir)))
      .concat(join(ROOT, "hardhat.config.ts"));
    const deep = outside.flatMap((file) =>
      specifiers(file)
        .filter((spec) => /^@augur\/engine\//.test(spec) && spec !== "@augur/engine/test-support")
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(deep).to.deep.equal([]);
  });

  it("the packages depend downward only: scorer < records < agent, engine", () => {
    const allowed: Record<string, readonly string[]> = {
      scorer: [],
      records: ["@augur/scorer"],
      agent: ["@augur/records", "@augur/scorer"],
      engine: ["@augur/records", "@augur/scorer"],
    };
    for (const [name, augur] of Object.entries(allowed)) {
      const dir = join(ROOT, "packages", name);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      const declared = Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith("@augur/"));
      expect(declared.sort(), `packages/${name}/package.json`).to.deep.equal([...augur]);
      const imported = tsFiles(dir).flatMap((file) =>
        specifiers(file)
          .filter((spec) => spec.startsWith("@augur/"))
          .map((spec) => spec.split("/").slice(0, 2).join("/"))
          .filter((pkg) => !augur.includes(pkg) && pkg !== `@augur/${name}`)
          .map((pkg) => `${relative(ROOT, file)} imports ${pkg}`),
      );
      expect(imported, `packages/${name}`).to.deep.equal([]);
    }
  });

  it("the wire protocol stays free of I/O: @augur/records imports only @augur/scorer, ethers, tiny-secp256k1 and @noble/hashes' keccak", () => {
    const files = tsFiles(join(ROOT, "packages/records/src")).filter((file) => !isTest(file));
    const external = files.flatMap((file) =>
      specifiers(file)
        .filter((spec) => !spec.startsWith("."))
        .filter((spec) => !["@augur/scorer", "ethers", "tiny-secp256k1", "@noble/hashes/sha3"].includes(spec))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(external).to.deep.equal([]);
  });
});
