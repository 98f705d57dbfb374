import type { Log } from "ethers";
import type { Kysely } from "kysely";
import type { Hex32 } from "@augur/scorer";
import { recordAnchor } from "../cycle/run";
import { ANCHORED_TOPIC, anchorRegistry } from "../chain/abi/anchor-registry";
import { MerkleLogStore } from "../store/merkle/log-store";
import type { Store } from "../store/open";
import type { Database } from "../store/schema";
import { logPlace, type Source } from "./blocks";
import { ReorgTooDeepError } from "./errors";
import type { EventHandler } from "./follow";

const log = new MerkleLogStore();

/**
 * AnchorRegistry's `Anchored` events: stored as seen in `anchor_events` (rolled back on reorg),
 * and once confirmed recorded in the append-only `anchors` table — the same row the keeper's
 * receipt makes, so whichever comes first writes it and the other finds it there.
 */
export class AnchoredEvents implements EventHandler {
  readonly topics = [ANCHORED_TOPIC];

  constructor(
    private readonly source: Source,
    private readonly confirmations: number,
    private readonly now: () => number,
  ) {}

  async store(
    trx: Kysely<Database>,
    logs: readonly Log[],
    timestamps: ReadonlyMap<string, number>,
  ): Promise<number> {
    let fresh = 0;
    for (const entry of logs) {
      const parsed = anchorRegistry.parseLog(entry);
      if (!parsed || parsed.name !== "Anchored") continue;
      const result = await trx
        .insertInto("anchor_events")
        .values({
          chain_id: this.source.chainId,
          registry: this.source.address,
          anchor_index: Number(parsed.args.getValue("index")),
          tree_size: Number(parsed.args.getValue("treeSize")),
          root: (parsed.args.getValue("root") as string).toLowerCase(),
          ...logPlace(entry, timestamps),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      fresh += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return fresh;
  }

  async rollback(trx: Kysely<Database>, block: number): Promise<number> {
    const recorded = await trx
      .selectFrom("anchors")
      .select("block_number")
      .where("chain_id", "=", this.source.chainId)
      .where("registry", "=", this.source.address)
      .where("block_number", ">", block)
      .orderBy("block_number")
      .executeTakeFirst();
    if (recorded) throw new ReorgTooDeepError(recorded.block_number, this.confirmations);
    const result = await trx
      .deleteFrom("anchor_events")
      .where("chain_id", "=", this.source.chainId)
      .where("registry", "=", this.source.address)
      .where("block_number", ">", block)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Records confirmed heads in index order; stops at a head beyond the local log (not ours yet). */
  async promote(store: Store, through: number): Promise<number> {
    const events = await store.db
      .selectFrom("anchor_events")
      .selectAll()
      .where("chain_id", "=", this.source.chainId)
      .where("registry", "=", this.source.address)
      .where("block_number", "<=", through)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("anchors")
              .select("anchor_index")
              .whereRef("anchors.anchor_index", "=", "anchor_events.anchor_index"),
          ),
        ),
      )
      .orderBy("anchor_index")
      .execute();
    let promoted = 0;
    for (const e of events) {
      if (e.tree_size > (await log.size(store.db))) break;
      await recordAnchor(
        store,
        {
          anchorIndex: e.anchor_index,
          treeSize: e.tree_size,
          root: e.root as Hex32,
          chainId: e.chain_id,
          registry: e.registry,
          txHash: e.tx_hash as Hex32,
          blockNumber: e.block_number,
          blockHash: e.block_hash as Hex32,
          anchoredAt: e.block_timestamp,
        },
        this.now(),
      );
      promoted++;
    }
    return promoted;
  }
}
