import { task } from "hardhat/config";
import { readFileSync } from "node:fs";
import { Contract, getAddress } from "ethers";
import { ANCHOR_REGISTRY_ABI, AgentError, BadArgumentError, send } from "@augur/agent";
import { isHex32, MerkleLog, type Hex32 } from "@augur/scorer";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { loadDeployment, roleSigner } from "./lib/runtime";

class ForeignHeadError extends AgentError {
  override readonly name = "ForeignHeadError";
  constructor(treeSize: number, posted: string, ours: string) {
    super(
      "FOREIGN_HEAD",
      `the registry's head (size ${treeSize}, root ${posted}) is not a prefix of these seals (root ${ours}): use the engine's full, ordered seal list`,
      { treeSize, posted, ours },
    );
  }
}

/** A JSON array of seals, or one seal per line. */
function readSeals(path: string): Hex32[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new BadArgumentError("seals", `cannot be read: ${(error as Error).message}`, path);
  }
  const trimmed = text.trim();
  const items: unknown[] = trimmed.startsWith("[")
    ? (JSON.parse(trimmed) as unknown[])
    : trimmed.split(/\s+/).filter(Boolean);
  if (items.length === 0)
    throw new BadArgumentError("seals", "holds no seal: there is nothing to anchor", path);
  items.forEach((seal, i) => {
    if (!isHex32(seal))
      throw new BadArgumentError("seals", `entry ${i} is not a seal (0x + 64 lowercase hex digits)`, seal);
  });
  return items as Hex32[];
}

task(
  "anchor:post",
  "Keeper: post the Merkle head of a seal list to the AnchorRegistry, once (re-posting is a no-op)",
)
  .addParam("seals", "file with every seal of the log in order: a JSON array, or one per line")
  .addOptionalParam("account", "local networks only: index of the node account to act as (default 0)")
  .addFlag("json", "print one JSON object instead of the summary")
  .setAction(async (args: { seals: string; account?: string; json: boolean }, hre) =>
    guarded(async () => {
      const seals = readSeals(args.seals);
      const record = await loadDeployment(hre);
      const signer = await roleSigner(hre, "KEEPER", args.account);
      const keeper = getAddress(await signer.getAddress());
      const registry = new Contract(record.contracts.AnchorRegistry!.address, ANCHOR_REGISTRY_ABI, signer);
      const role = (await registry.getFunction("KEEPER_ROLE")()) as string;
      if (!((await registry.getFunction("hasRole")(role, keeper)) as boolean)) {
        throw new AgentError(
          "NOT_KEEPER",
          `${keeper} has no KEEPER_ROLE on the registry: sign with the keeper key (KEEPER_PRIVATE_KEY)`,
          { keeper },
        );
      }
      const log = new MerkleLog(seals);
      const root = log.root();
      const count = Number(await registry.getFunction("anchorCount")());
      const latest =
        count === 0
          ? undefined
          : ((await registry.getFunction("latest")()) as { treeSize: bigint; root: string });
      const fromSize = latest ? Number(latest.treeSize) : 0;
      if (latest) {
        if (fromSize > log.size) throw new ForeignHeadError(fromSize, latest.root, root);
        if (log.root(fromSize) !== latest.root.toLowerCase())
          throw new ForeignHeadError(fromSize, latest.root, log.root(fromSize));
        if (fromSize === log.size) {
          return report(args.json, { posted: false, treeSize: log.size, root, index: count - 1 }, () => [
            `already anchored: head ${count - 1} is size ${log.size}, root ${root}; nothing sent`,
          ]);
        }
      }
      const proof = fromSize === 0 ? [] : log.consistencyProof(fromSize).proof;
      const sent = await send(registry.getFunction("post"), [log.size, root, proof]);
      return report(
        args.json,
        { posted: true, treeSize: log.size, root, index: count, fromSize, ...sent },
        () => [
          `anchored head ${count}: size ${log.size}, root ${root} (extends size ${fromSize}; tx ${sent.txHash})`,
        ],
      );
    }),
  );
