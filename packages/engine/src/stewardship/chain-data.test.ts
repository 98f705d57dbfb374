import { expect } from "chai";
import type { StoredStewardshipSwap, StoredStewardshipTransfer } from "../store/queries/stewardship";
import { poolSwaps, tokenTransfers, type MonitoredPool } from "./chain-data";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const TX = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const POOL = a(0xb00);
const ROUTER = a(0x7e7);
const T = 10n ** 18n;

const place = (tx: number, logIndex: number, time = 1_800_000_000) => ({
  chain_id: 31337,
  block_number: tx,
  block_hash: TX(tx + 1000),
  block_timestamp: time,
  tx_hash: TX(tx),
  log_index: logIndex,
});
const transfer = (tx: number, logIndex: number, from: string, to: string, amount: bigint) =>
  ({
    token: a(0x70),
    from_address: from,
    to_address: to,
    amount: amount.toString(),
    ...place(tx, logIndex),
  }) satisfies StoredStewardshipTransfer;
const swap = (tx: number, logIndex: number, recipient: string, amount0: bigint, amount1: bigint) =>
  ({
    pool: POOL,
    sender: ROUTER,
    recipient,
    amount0: amount0.toString(),
    amount1: amount1.toString(),
    ...place(tx, logIndex),
  }) satisfies StoredStewardshipSwap;

describe("stewardship chain data: stored logs as the scorer's transfers and swaps", () => {
  it("keeps transfers exact (bigint base units) with their place in the chain", () => {
    const [t] = tokenTransfers([transfer(1, 3, a(1), a(2), 2n ** 200n)]);
    expect(t).to.deep.equal({
      tx: TX(1),
      logIndex: 3,
      time: 1_800_000_000,
      from: a(1),
      to: a(2),
      amount: 2n ** 200n,
    });
  });

  for (const tokenIsToken0 of [true, false]) {
    const pool: MonitoredPool = { address: POOL, tokenIsToken0, usdDecimals: 6 };
    const pools = new Map([[POOL, pool]]);
    // (token delta, usd delta) from the pool's side, in the pool's token order.
    const amounts = (token: bigint, usd: bigint): [bigint, bigint] =>
      tokenIsToken0 ? [token, usd] : [usd, token];

    it(`reads the side from the token's sign and the USD value from the USDG side (token is token${tokenIsToken0 ? 0 : 1})`, () => {
      const rows = [
        // A buy: 500 tokens leave the pool for alice, who paid 1,234.5 USDG.
        swap(1, 2, a(1), ...amounts(-500n * T, 1_234_500_000n)),
        // A sell: bob's 200 tokens enter the pool (pulled by the router), 99.99 USDG go to carol.
        swap(2, 2, a(3), ...amounts(200n * T, -99_990_000n)),
      ];
      const transfers = [
        transfer(1, 0, POOL, a(1), 500n * T),
        transfer(2, 0, a(9), POOL, 7n * T), // another amount: not this swap's payment
        transfer(2, 1, a(2), POOL, 200n * T),
      ];
      const out = poolSwaps(rows, transfers, pools);
      expect(out.map((s) => [s.side, s.taker, s.tokens, s.usd])).to.deep.equal([
        ["buy", a(1), 500n * T, 1234.5],
        ["sell", a(2), 200n * T, 99.99],
      ]);
      expect(out[0]).to.include({ tx: TX(1), logIndex: 2, pool: POOL, time: 1_800_000_000 });
    });

    it(`falls back to the recipient for a sell without a matching transfer, and skips swaps moving no token (token${tokenIsToken0 ? 0 : 1})`, () => {
      const rows = [swap(3, 1, a(4), ...amounts(10n * T, -5_000_000n)), swap(4, 1, a(5), ...amounts(0n, 1n))];
      const out = poolSwaps(rows, [transfer(3, 2, a(2), POOL, 10n * T)], pools); // after the swap: not its payment
      expect(out.map((s) => [s.side, s.taker, s.usd])).to.deep.equal([["sell", a(4), 5]]);
    });
  }

  it("ignores swaps of pools that are not monitored", () => {
    expect(poolSwaps([swap(1, 1, a(1), -1n, 1n)], [], new Map())).to.deep.equal([]);
  });
});
