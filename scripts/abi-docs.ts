/**
 * `npm run abi:docs` (after `npx hardhat compile`): writes docs/abi/<Contract>.json (the ABI) and docs/abi/README.md (every
 * function and error selector and event topic) for the three deployed contracts, from the
 * compiled artifacts. Deterministic (entries sorted, formatted by the repo's prettier), so
 * test/abi-docs.test.ts can regenerate and compare: a contract change that forgets the docs fails.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { Interface, type Fragment, type JsonFragment } from "ethers";
import { format, resolveConfig } from "prettier";

export const ROOT = resolve(__dirname, "..");
export const CONTRACTS = [
  "AnchorRegistry",
  "CallLedger",
  "LiquidityLock",
  "OperatorVesting",
  "PriceOracle",
] as const;
export const ABI_DIR = join(ROOT, "docs/abi");

const KIND_ORDER = ["constructor", "function", "event", "error", "fallback", "receive"];

function artifactAbi(name: string): JsonFragment[] {
  const file = join(ROOT, "artifacts/contracts", `${name}.sol`, `${name}.json`);
  if (!existsSync(file)) throw new Error(`no artifact for ${name}: run npx hardhat compile first`);
  return (JSON.parse(readFileSync(file, "utf8")) as { abi: JsonFragment[] }).abi;
}

/** Sorted by kind, then canonical signature, so the file never depends on compiler output order. */
function sortedAbi(abi: JsonFragment[]): JsonFragment[] {
  const key = (f: JsonFragment) => {
    const fragment = Interface.from([f]).fragments[0] ?? Interface.from([f]).deploy;
    const text = fragment.type === "constructor" ? fragment.format("full") : fragment.format("sighash");
    return `${KIND_ORDER.indexOf(f.type ?? "function")}`.padStart(2, "0") + text;
  };
  return [...abi].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return "(none)\n";
  return [row(head), row(head.map(() => "---")), ...rows.map(row)].join("\n") + "\n";
}

function section(name: string, iface: Interface): string {
  const functions = iface.fragments.filter(
    (f): f is Fragment & { type: "function" } => f.type === "function",
  );
  const fn = [...functions]
    .map((f) => {
      const func = iface.getFunction(f.format("sighash"))!;
      const returns = func.outputs.map((o) => o.format("full")).join(", ");
      return [
        `\`${func.format("sighash")}\``,
        `\`${func.selector}\``,
        func.stateMutability,
        returns ? `\`${returns}\`` : "",
      ];
    })
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  const events: string[][] = [];
  iface.forEachEvent((e) => events.push([`\`${e.format("sighash")}\``, `\`${e.topicHash}\``]));
  const errors: string[][] = [];
  iface.forEachError((e) => errors.push([`\`${e.format("sighash")}\``, `\`${e.selector}\``]));
  events.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  errors.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  return [
    `## ${name}`,
    "",
    `ABI: [${name}.json](${name}.json).`,
    "",
    "### Functions",
    "",
    table(["signature", "selector", "mutability", "returns"], fn),
    "### Events",
    "",
    table(["signature", "topic 0"], events),
    "### Errors",
    "",
    table(["signature", "selector"], errors),
  ].join("\n");
}

/** Every file of docs/abi/, path → text, exactly as `npm run abi:docs` writes it. */
export async function abiDocs(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pretty = async (file: string, text: string) =>
    format(text, { ...(await resolveConfig(file)), filepath: file });
  const sections: string[] = [];
  for (const name of CONTRACTS) {
    const abi = sortedAbi(artifactAbi(name));
    const file = join(ABI_DIR, `${name}.json`);
    files.set(file, await pretty(file, JSON.stringify(abi, null, 2)));
    sections.push(section(name, new Interface(abi)));
  }
  const readme = join(ABI_DIR, "README.md");
  const intro = [
    "# Contract ABIs and selectors",
    "",
    "Generated from the compiled artifacts by `npm run abi:docs` (`scripts/abi-docs.ts`); do not",
    "edit by hand. `test/abi-docs.test.ts` regenerates these files and fails when they differ, so",
    "they always describe the contracts of this commit. Addresses come from",
    "`deployments/<network>.json` ([deploy.md](../deploy.md)). A function selector is the first",
    "4 bytes of keccak256 of its signature; an event's topic 0 is the full hash. Types are the ABI",
    "types: `anchorAt` takes a `uint256` index, tree sizes and leaf indexes are `uint64`.",
    "",
  ].join("\n");
  files.set(readme, await pretty(readme, [intro, ...sections].join("\n")));
  return files;
}

async function main(): Promise<void> {
  mkdirSync(ABI_DIR, { recursive: true });
  for (const [file, text] of await abiDocs()) {
    writeFileSync(file, text);
    console.log(`wrote ${file.slice(ROOT.length + 1)}`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`abi:docs: ${(error as Error).message.split("\n")[0]}`);
    process.exit(1);
  });
}
