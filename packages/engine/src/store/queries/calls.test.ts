import { expect } from "chai";
import fc from "fast-check";
import { openStore, type Store } from "../open";
import { dueCalls } from "./calls";

/** One call of the model: when it was committed, whether (and until when) it was revealed, whether it was resolved. */
interface ModelCall {
  readonly committedAt: number;
  readonly closesIn: number | null;
  readonly resolved: boolean;
}

const modelCall: fc.Arbitrary<ModelCall> = fc.record({
  committedAt: fc.integer({ min: 0, max: 10_000 }),
  closesIn: fc.option(fc.integer({ min: 1, max: 20_000 })),
  resolved: fc.boolean(),
});

describe("dueCalls: the settler's work list, against a model", () => {
  let store: Store;
  let run = 0;

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
  });
  after(async () => store.close());

  /** Stores the indexer's rows for `calls` on a ledger of its own (runs never see each other's rows). */
  async function seed(calls: readonly ModelCall[]): Promise<{ chainId: number; address: string }> {
    run += 1;
    const source = { chainId: 31337, address: `0x${run.toString(16).padStart(40, "0")}` };
    const rows = calls.flatMap((c, i) => {
      const base = {
        chain_id: source.chainId,
        ledger: source.address,
        call_id: String(1000 + i),
        agent: "0x00000000000000000000000000000000000000aa",
        block_number: i,
        block_hash: `0x${"0".repeat(64)}`,
        block_timestamp: c.committedAt,
        // Unique per (chain, tx, log index), as events are.
        tx_hash: `0x${run.toString(16).padStart(32, "0")}${i.toString(16).padStart(32, "0")}`,
        record_seal: null,
      };
      const revealed = c.closesIn !== null;
      return [
        {
          ...base,
          kind: "committed" as const,
          payload: JSON.stringify({ committedAt: c.committedAt }),
          log_index: 0,
        },
        ...(revealed
          ? [
              {
                ...base,
                kind: "revealed" as const,
                payload: JSON.stringify({ closesAt: c.committedAt + c.closesIn! }),
                log_index: 1,
              },
            ]
          : []),
        ...(c.resolved
          ? [
              {
                ...base,
                kind: revealed ? ("settled" as const) : ("expired" as const),
                payload: "{}",
                log_index: 2,
              },
            ]
          : []),
      ];
    });
    if (rows.length > 0) await store.db.insertInto("call_events").values(rows).execute();
    return source;
  }

  it("lists exactly the open calls the ledger would resolve now, longest-due first, at most the limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(fc.array(modelCall, { maxLength: 12 }), fc.integer({ min: 1, max: 5_000 }))
          .chain(([calls, revealTimeout]) => {
            // Half the time "now" is exactly some call's due time: the boundary is where bugs live.
            const dueTimes = calls.map((c) =>
              c.closesIn !== null ? c.committedAt + c.closesIn : c.committedAt + revealTimeout + 1,
            );
            const anyTime = fc.integer({ min: 0, max: 40_000 });
            return fc.tuple(
              fc.constant(calls),
              dueTimes.length > 0 ? fc.oneof(anyTime, fc.constantFrom(...dueTimes)) : anyTime,
              fc.constant(revealTimeout),
            );
          }),
        fc.integer({ min: 1, max: 12 }),
        async ([calls, chainNow, revealTimeout], limit) => {
          const source = await seed(calls);
          // The model: a revealed call is settleable from closesAt on; an unrevealed commit is
          // expirable strictly after committedAt + revealTimeout; a resolved call is never due.
          const model = calls
            .map((c, i) => ({
              callId: String(1000 + i),
              action: c.closesIn !== null ? ("settle" as const) : ("expire" as const),
              dueAt: c.closesIn !== null ? c.committedAt + c.closesIn : c.committedAt + revealTimeout + 1,
              open: !c.resolved,
            }))
            .filter((c) => c.open && c.dueAt <= chainNow)
            .sort((a, b) => a.dueAt - b.dueAt || (a.callId < b.callId ? -1 : 1));
          const { due, total } = await dueCalls(store.db, source, chainNow, revealTimeout, limit);
          expect(total).to.equal(model.length);
          expect(due.map((d) => [d.callId, d.action, d.dueAt])).to.deep.equal(
            model.slice(0, limit).map((m) => [m.callId, m.action, m.dueAt]),
          );
        },
      ),
    );
  });
});
