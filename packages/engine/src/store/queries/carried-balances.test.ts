import { expect } from "chai";
import { openStore, type Store } from "../open";
import { loadCarried, saveCarried, type CarriedState } from "./carried-balances";

const state = (block: number, tokens: string[], rows: Record<string, bigint[]>): CarriedState => ({
  block,
  hash: `0x${block.toString(16).padStart(64, "0")}`,
  tokens,
  balances: new Map(Object.entries(rows)),
});

describe("carried balances in the store", () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
  });
  afterEach(async () => store.close());

  it("saves what the next load answers: changed and new wallets written, dropped ones removed, per season", async () => {
    expect(await loadCarried(store.db, "s1")).to.equal(undefined);
    const first = state(10, ["0xa", "0xb"], { "0x1": [1n, 2n], "0x2": [3n, 10n ** 30n], "0x3": [0n, 0n] });
    await saveCarried(store.db, "s1", undefined, first);
    expect(await loadCarried(store.db, "s1")).to.deep.equal(first);
    const next = state(20, ["0xa", "0xb"], { "0x1": [1n, 2n], "0x2": [4n, 10n ** 30n], "0x4": [5n, 6n] });
    await saveCarried(store.db, "s1", first, next);
    expect(await loadCarried(store.db, "s1")).to.deep.equal(next);
    expect(await loadCarried(store.db, "s2")).to.equal(undefined);
    // Another token list: the head names it, and the rows follow it.
    const relisted = state(30, ["0xa", "0xc"], { "0x1": [1n, 2n] });
    await saveCarried(store.db, "s1", next, relisted);
    expect(await loadCarried(store.db, "s1")).to.deep.equal(relisted);
  });
});
