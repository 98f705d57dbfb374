import { anchorCurrentHead, currentHead } from "../../keeper/anchor-head";
import { latestAnchor, type Anchor } from "../../store/queries/anchors";
import type { Keeper, LogHead } from "../../keeper/seam";
import type { CycleContext, CycleStep } from "./step";

/**
 * Anchor: reads the log's head and has `keeper` anchor it unless the newest stored anchor already
 * covers it; without a keeper the head is only reported. Later steps read only what sits below
 * the newest stored anchor.
 */
export function anchorStep(keeper?: Keeper): CycleStep {
  return {
    name: "anchor",
    runsWhenClosing: true,
    async run(context) {
      const head = await currentHead(context.store);
      context.say(`log head: size ${head.treeSize}, root ${head.root}`);
      context.anchor = await anchorHead(context, keeper, head);
      if (keeper)
        context.reanchor = async () => anchorHead(context, keeper, await currentHead(context.store));
      return { head };
    },
  };
}

/** Anchors `head` and returns the newest stored anchor afterwards. */
async function anchorHead(
  { store, now, say }: CycleContext,
  keeper: Keeper | undefined,
  head: LogHead,
): Promise<Anchor | undefined> {
  if (!keeper) {
    say("keeper: not configured; head not anchored");
    return latestAnchor(store.db);
  }
  const outcome = await anchorCurrentHead(store, keeper, () => now, head);
  if (outcome.kind === "anchored") {
    const { receipt } = outcome;
    if (receipt.treeSize !== head.treeSize || receipt.root !== head.root) {
      say(`keeper: anchored a different head (size ${receipt.treeSize}); recording it as reported`);
    }
    say(
      `keeper: head ${receipt.treeSize} anchored at index ${receipt.anchorIndex}, block ${receipt.blockNumber}`,
    );
  } else if (outcome.kind === "pending") {
    say("keeper: head posted, not yet mined with enough confirmations");
  } else {
    say("keeper: head already anchored");
  }
  return latestAnchor(store.db);
}
