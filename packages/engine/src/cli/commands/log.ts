import { parseArgs } from "node:util";
import { type InclusionProof, MerkleLog, MerkleRangeError, merkleRoot, type Hex32 } from "@augur/scorer";
import { UsageError, type Command, type CommandIo } from "../command";
import { parseSealLines, readInput } from "../input";

const usage = `Usage:
  augur log root [file]
  augur log prove --index I [--size N] [file]
  augur log consistency --from M [--to N] [file]

Reads seals, one per line (0x + 64 hex digits; line n is leaf n - 1), from <file> or stdin,
and works on their RFC 6962 Merkle log (see docs/merkle-log.md).

  root          prints the root of all the seals (sha256("") when there are none)
  prove         prints the inclusion proof of leaf I in the tree of the first N seals
                (default: all) in the shape GET /api/v1/anchors/leaves/:seal serves:
                { seal, leafIndex, anchor: { treeSize, root }, proof: { leafIndex, treeSize, hashes } }
  consistency   prints the consistency proof from the tree of the first M seals to the
                first N (default: all) as JSON { fromSize, toSize, fromRoot, toRoot, proof }
`;

/** A non-negative integer option; absent → undefined. */
function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function parse(argv: string[], options: Record<string, { type: "string" }>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function readSeals(positionals: string[], io: CommandIo): Promise<Hex32[]> {
  if (positionals.length > 1) throw new UsageError(`expected at most one file, got ${positionals.length}`);
  return parseSealLines(await readInput(positionals[0], io));
}

/** The log of the first `size` seals; a size beyond the input is an error, not a silent clamp. */
function logOf(seals: Hex32[], size: number, flag: string): MerkleLog {
  if (size > seals.length) {
    throw new MerkleRangeError(`${flag} ${size} is beyond the ${seals.length} seals given`, { size });
  }
  return new MerkleLog(seals.slice(0, size));
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The one inclusion-proof shape of docs/merkle-log.md §6: the API's leaf answer, less the chain fields. */
function leafView(seal: Hex32, proof: InclusionProof) {
  return {
    seal,
    leafIndex: proof.leafIndex,
    anchor: { treeSize: proof.treeSize, root: proof.root },
    proof: { leafIndex: proof.leafIndex, treeSize: proof.treeSize, hashes: proof.proof },
  };
}

export const command: Command = {
  name: "log",
  summary: "Merkle log of seals: root, inclusion proof (prove), consistency proof",
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    switch (sub) {
      case "root": {
        const { positionals } = parse(rest, {});
        io.stdout.write(`${merkleRoot(await readSeals(positionals, io))}\n`);
        return 0;
      }
      case "prove": {
        const { values, positionals } = parse(rest, { index: { type: "string" }, size: { type: "string" } });
        const index = count(values.index, "--index");
        if (index === undefined) throw new UsageError("prove needs --index I");
        const seals = await readSeals(positionals, io);
        const size = count(values.size, "--size") ?? seals.length;
        const proof = logOf(seals, size, "--size").inclusionProof(index, size);
        io.stdout.write(json(leafView(seals[index]!, proof)));
        return 0;
      }
      case "consistency": {
        const { values, positionals } = parse(rest, { from: { type: "string" }, to: { type: "string" } });
        const from = count(values.from, "--from");
        if (from === undefined) throw new UsageError("consistency needs --from M");
        const seals = await readSeals(positionals, io);
        const to = count(values.to, "--to") ?? seals.length;
        io.stdout.write(json(logOf(seals, to, "--to").consistencyProof(from, to)));
        return 0;
      }
      case undefined:
        throw new UsageError("expected a subcommand: root, prove or consistency");
      default:
        throw new UsageError(`unknown subcommand '${sub}' (root, prove, consistency)`);
    }
  },
};
