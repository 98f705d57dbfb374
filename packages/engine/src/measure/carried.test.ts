import { expect } from "chai";
import fc from "fast-check";
import { FakeChain } from "../../test-support/measure/fake-chain";
import { readCarried, reconcilesAt, type CarriedState } from "./carried";
import { HOUR, measureHour, type HourBalances } from "./hour";

const T0 = 1_800_000_000 - (1_800_000_000 % HOUR);
const E18 = 10n ** 18n;
const ZERO = `0x${"0".repeat(40)}`;
const hex40 = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const USDG = hex40(0xa0);
const STOCKS = [hex40(0xb0), hex40(0xb1)];
const POOLS = [hex40(0xc0), hex40(0xc1)];
const TOKENS = [USDG, ...STOCKS];
/** Measured wallets: spread over the address space so the rotation picks different hours. */
const WALLETS = Array.from({ length: 8 }, (_, i) => hex40(0x1000 * (i + 1) + i * 7));
const OUTSIDER = hex40(0xe0);

function listedChain(): FakeChain {
  const decimals = Object.fromEntries(TOKENS.map((t, i) => [t, i === 0 ? 6 : 18]));
  const chain = new FakeChain(
    { usdg: USDG, stocks: STOCKS.map((token, i) => ({ token, pool: POOLS[i]! })) },
    decimals,
  );
  chain.mine(T0 - 10, [
    ...TOKENS.flatMap((token) =>
      [...POOLS, OUTSIDER].map((to) => ({ token, from: ZERO, to, amount: 10n ** 30n })),
    ),
  ]);
  return chain;
}

/** One hour's moves: [from, to, token, per-mille of the sender's balance], indices into the parties. */
const parties = [...WALLETS, ...POOLS, OUTSIDER, ZERO];
const move = fc.tuple(
  fc.nat({ max: parties.length - 1 }),
  fc.nat({ max: parties.length - 2 }),
  fc.nat({ max: TOKENS.length - 1 }),
  fc.integer({ min: 1, max: 1000 }),
);
const hours = fc.array(fc.record({ moves: fc.array(move, { maxLength: 12 }), joining: fc.nat({ max: 3 }) }), {
  minLength: 1,
  maxLength: 5,
});

/** Mines hour `h`'s moves, each within its sender's balance (the zero address mints). */
function mineHour(
  chain: FakeChain,
  h: number,
  moves: ReadonlyArray<readonly [number, number, number, number]>,
) {
  const last = chain.blocks.length - 1;
  const transfers = [];
  const pending = new Map<string, bigint>();
  for (const [f, t, k, perMille] of moves) {
    const from = parties[f]!;
    const to = parties.filter((p) => p !== from && p !== ZERO)[t % (parties.length - 2)]!;
    const token = TOKENS[k]!;
    const held =
      from === ZERO
        ? 10n ** 24n
        : chain.balanceAt(last, from, token) + (pending.get(`${from}${token}`) ?? 0n);
    const amount = (held * BigInt(perMille)) / 1000n;
    if (amount === 0n) continue;
    pending.set(`${from}${token}`, (pending.get(`${from}${token}`) ?? 0n) - amount);
    pending.set(`${to}${token}`, (pending.get(`${to}${token}`) ?? 0n) + amount);
    transfers.push({ token, from, to, amount });
  }
  chain.mine(T0 + h * HOUR + 100, transfers.slice(0, transfers.length / 2));
  chain.mine(T0 + h * HOUR + 2000, transfers.slice(transfers.length / 2));
  for (const token of STOCKS) chain.setPrice(token, T0 + (h + 1) * HOUR, BigInt(100 + h) * E18);
}

describe("measure/carried: balances carried from Transfer logs", () => {
  /** Runs `plan` hour by hour, calling `check` with each hour's carried read and what it was carried from. */
  async function carryThrough(
    plan: ReadonlyArray<{ moves: ReadonlyArray<readonly [number, number, number, number]>; joining: number }>,
    check: (
      chain: FakeChain,
      at: number,
      wallets: string[],
      prior: CarriedState | undefined,
    ) => Promise<CarriedState>,
  ) {
    const chain = listedChain();
    for (const token of STOCKS) chain.setPrice(token, T0, 100n * E18);
    let state: CarriedState | undefined;
    let measured = 2;
    for (const [h, { moves, joining }] of plan.entries()) {
      mineHour(chain, h, moves);
      const wallets = WALLETS.slice(0, Math.min(WALLETS.length, (measured += joining)));
      state = await check(chain, T0 + (h + 1) * HOUR, wallets, state);
    }
  }

  it("answers what readBalances answers at every hour, reading balanceOf only for first measures and the rotation", async () => {
    await fc.assert(
      fc.asyncProperty(hours, (plan) =>
        carryThrough(plan, async (chain, at, wallets, prior) => {
          const block = await chain.blockAt(at);
          const read = await readCarried(chain, prior, block, at, wallets, TOKENS);
          expect(read.balances).to.deep.equal(await chain.readBalances(block.number, wallets, TOKENS));
          expect(read.mismatches).to.deep.equal([]);
          const first = wallets.filter((w) => !prior?.balances.has(w));
          const rotation = wallets.filter((w) => !first.includes(w) && reconcilesAt(w, at));
          expect(read.checked).to.equal(first.length + rotation.length);
          return read.state;
        }),
      ),
    );
  });

  it("the sealed content is unchanged: measureHour seals the same records carried as read in full", async () => {
    // Ten times fewer runs: each measures every hour twice.
    const numRuns = Math.ceil((fc.readConfigureGlobal().numRuns ?? 100) / 10);
    await fc.assert(
      fc.asyncProperty(hours, (plan) =>
        carryThrough(plan, async (chain, at, wallets, prior) => {
          const ids = wallets.map((wallet, i) => ({ agentId: `a${i}`, wallet }));
          let state: CarriedState | undefined;
          const balances: HourBalances = async (b, ws, ts) => {
            const read = await readCarried(chain, prior, b, at, ws, ts);
            state = read.state;
            return read;
          };
          const carried = await measureHour(chain, chain, "s1", ids, at, { balances });
          expect(carried).to.deep.equal(await measureHour(chain, chain, "s1", ids, at));
          expect(carried.records.filter((r) => r.kind === "snapshot")).to.have.length(wallets.length);
          return state!;
        }),
      ),
      { numRuns },
    );
  });

  it("a balance moved without a Transfer log is caught by the rotation (the chain's value taken) or at once when it would go negative", async () => {
    /** A rebasing token: `wallet`'s balance changes by `delta` from `block` on, with no log. */
    class Silent extends FakeChain {
      silent: Array<{ wallet: string; token: string; block: number; delta: bigint }> = [];
      override balanceAt(block: number, wallet: string, token: string) {
        const moved = this.silent.filter((s) => s.wallet === wallet && s.token === token && s.block <= block);
        return super.balanceAt(block, wallet, token) + moved.reduce((sum, s) => sum + s.delta, 0n);
      }
    }
    const chain = new Silent({ usdg: USDG, stocks: [] }, { [USDG]: 6 });
    const at = T0 + HOUR;
    const rotating = WALLETS.find((w) => reconcilesAt(w, at + HOUR))!;
    const resting = WALLETS.find((w) => !reconcilesAt(w, at + HOUR))!;
    const drained = WALLETS.find((w) => w !== resting && !reconcilesAt(w, at + HOUR))!;
    expect([rotating, resting, drained].every(Boolean)).to.equal(true);
    chain.mine(
      T0 + 10,
      [rotating, resting, drained].map((to) => ({ token: USDG, from: ZERO, to, amount: 1000n })),
    );
    const wallets = [rotating, resting, drained];
    const first = await readCarried(chain, undefined, await chain.blockAt(at), at, wallets, [USDG]);
    expect(first.fullRead).to.equal("no carried state");
    // Hour 2: a rebase credits three wallets with no log; drained then spends more than it carried.
    chain.mine(at + 10, [{ token: USDG, from: drained, to: OUTSIDER, amount: 1200n }]);
    chain.silent.push(
      { wallet: rotating, token: USDG, block: 1, delta: 7n },
      { wallet: resting, token: USDG, block: 1, delta: 7n },
      { wallet: drained, token: USDG, block: 1, delta: 500n },
    );
    const next = await readCarried(chain, first.state, await chain.blockAt(at + HOUR), at + HOUR, wallets, [
      USDG,
    ]);
    expect(next.mismatches).to.deep.equal([
      { wallet: rotating, token: USDG, carried: 1000n, chain: 1007n },
      { wallet: drained, token: USDG, carried: -200n, chain: 300n },
    ]);
    expect(next.checked).to.equal(2);
    expect(next.balances).to.deep.equal([[1007n], [1000n], [300n]]);
    // resting is carried stale until its own hour of the day: the rotation bounds a silent move to a day.
    expect(await chain.readBalances(1, [resting], [USDG])).to.deep.equal([[1007n]]);
  });

  it("a reorg below the carried block, another token list, or an earlier block reads every balance in full", async () => {
    const chain = listedChain();
    mineHour(chain, 0, [[0, 1, 0, 500]]);
    const at = T0 + HOUR;
    const block = await chain.blockAt(at);
    const { state } = await readCarried(chain, undefined, block, at, WALLETS, TOKENS);
    chain.blocks[block.number] = { ...block, hash: `0x${"ee".repeat(32)}` };
    const reorged = await readCarried(chain, state, await chain.blockAt(at), at, WALLETS, TOKENS);
    expect(reorged.fullRead).to.match(/no longer .* \(a reorg\)/);
    expect(reorged.checked).to.equal(WALLETS.length);
    const fewer = await readCarried(chain, reorged.state, block, at, WALLETS, TOKENS.slice(1));
    expect(fewer.fullRead).to.equal("the listed tokens changed");
    const back = await readCarried(chain, reorged.state, chain.blocks[0]!, T0, WALLETS, TOKENS);
    expect(back.fullRead).to.equal(`carried at block ${block.number}, after 0`);
    expect(back.balances).to.deep.equal(await chain.readBalances(0, WALLETS, TOKENS));
  });
});
