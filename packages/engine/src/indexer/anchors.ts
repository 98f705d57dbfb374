import type { Log } from "ethers";
import { ANCHORED_TOPIC, anchorRegistry } from "../chain/abi/anchor-registry";
import type { Store } from "../store/open";
import { recordAnchorOnce, unrecordedAnchorEvents } from "../store/queries/anchors";
import type { LogPlace, Source } from "./blocks";
import { EventTableHandler, type EventRow } from "./event-table";

/**
 * AnchorRegistry's `Anchored` events: stored as seen in `anchor_events` (rolled back on reorg),
 * and once confirmed recorded in the append-only `anchors` table — the same row the keeper's
 * receipt makes, so whichever comes first writes it and the other finds it there.
 */
export class AnchoredEvents extends EventTableHandler {
  readonly topics = [ANCHORED_TOPIC];
  protected readonly tables = ["anchor_events"] as const;
  protected readonly final = "anchors";

  constructor(
    source: Source,
    confirmations: number,
    private readonly now: () => number,
  ) {
    super(source, confirmations);
  }

  protected rowsOf(entry: Log, place: LogPlace): EventRow[] {
    const parsed = anchorRegistry.parseLog(entry);
    if (!parsed || parsed.name !== "Anchored") return [];
    const row = {
      chain_id: this.source.chainId,
      registry: this.source.address,
      anchor_index: Number(parsed.args.getValue("index")),
      tree_size: Number(parsed.args.getValue("treeSize")),
      root: (parsed.args.getValue("root") as string).toLowerCase(),
      ...place,
    };
    return [{ table: "anchor_events", row }];
  }

  /** Records confirmed heads in index order; stops at a head beyond the local log (not ours yet). */
  override async promote(store: Store, through: number): Promise<number> {
    let promoted = 0;
    for (const e of await unrecordedAnchorEvents(store.db, this.source, through)) {
      if (e.tree_size > (await store.log.size(store.db))) break;
      await recordAnchorOnce(store, {
        anchor_index: e.anchor_index,
        tree_size: e.tree_size,
        root: e.root,
        chain_id: e.chain_id,
        registry: e.registry.toLowerCase(),
        tx_hash: e.tx_hash,
        block_number: e.block_number,
        block_hash: e.block_hash,
        anchored_at: e.block_timestamp,
        recorded_at: this.now(),
      });
      promoted++;
    }
    return promoted;
  }
}
