import { expect } from "chai";
import { canonicalJson, sha256, toHex32 } from "@augur/scorer";
import { FakeChain } from "../../test-support/measure/fake-chain";
import { HOUR, measureHour } from "../measure/hour";
import type { ServedInput } from "./deep-responses";
import { hasPooledMarks, pooledTotalProblems, SeasonPooledSums } from "./pooled";

const E18 = 10n ** 18n;
const hex40 = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const [USDG, TSLA, POOL, FUNDER] = [0xa0, 0xb0, 0xc0, 0xd0].map(hex40) as [string, string, string, string];
const WALLETS = [0x1001, 0x1002, 0x1003].map(hex40);
const AT = 1_800_000_000 - (1_800_000_000 % HOUR);

/** Three wallets holding TSLA measured at two hours with a quoter: served as the API serves them. */
async function seasonSnapshots(): Promise<ServedInput[]> {
  const chain = new FakeChain(
    { usdg: USDG, stocks: [{ token: TSLA, pool: POOL }] },
    { [USDG]: 6, [TSLA]: 18 },
  );
  chain.quotes.set(TSLA, (amount) => (amount * 99n) / E18);
  chain.mine(
    AT - 100,
    WALLETS.map((to, i) => ({ token: TSLA, from: FUNDER, to, amount: BigInt(i + 1) * E18 })),
  );
  chain.mine(AT + 100, [{ token: TSLA, from: WALLETS[0]!, to: WALLETS[2]!, amount: E18 / 2n }]);
  const served: ServedInput[] = [];
  for (const at of [AT, AT + HOUR]) {
    chain.setPrice(TSLA, at, 100n * E18);
    const wallets = WALLETS.map((wallet, i) => ({ agentId: `a${i}`, wallet }));
    for (const r of (await measureHour(chain, chain, "s1", wallets, at)).records) {
      const body = canonicalJson(r.body);
      served.push({ kind: r.kind, seal: toHex32(sha256(body)), leafIndex: served.length, body });
    }
  }
  return served;
}

describe("verify --deep: pooled totals", () => {
  it("every pooled balance is the sum of the stock over the season's snapshots at the same hour", async () => {
    const season = await seasonSnapshots();
    const own = season.filter((i) => JSON.parse(i.body).agentId === "a1");
    expect(hasPooledMarks(own)).to.equal(true);
    expect(JSON.parse(own[0]!.body).holdings[0].pooled.balance).to.equal(String(6n * E18));
    expect(pooledTotalProblems(own, season)).to.deep.equal([]);
  });

  it("an altered pooled total fails and names the record, even re-sealed", async () => {
    const season = await seasonSnapshots();
    const victim = season.findIndex(
      (i) => JSON.parse(i.body).agentId === "a1" && JSON.parse(i.body).takenAt === AT + HOUR,
    );
    const body = JSON.parse(season[victim]!.body);
    body.holdings[0].pooled.balance = String(6n * E18 + 1n);
    const altered = canonicalJson(body);
    season[victim] = { ...season[victim]!, body: altered, seal: toHex32(sha256(altered)) };
    const own = season.filter((i) => JSON.parse(i.body).agentId === "a1");
    expect(pooledTotalProblems(own, season)).to.deep.equal([
      `snapshot ${season[victim]!.seal} (leaf ${victim}) at ${AT + HOUR}: ${TSLA} pooled balance ${6n * E18 + 1n}, but the season's 3 snapshots at that hour hold ${6n * E18}`,
    ]);
  });

  it("a wallet skipped for an unpriced token stays out of the engine's total, so the sealed snapshots still sum to it", async () => {
    const NVDA = hex40(0xb1);
    const chain = new FakeChain(
      {
        usdg: USDG,
        stocks: [
          { token: TSLA, pool: POOL },
          { token: NVDA, pool: hex40(0xc1) },
        ],
      },
      { [USDG]: 6, [TSLA]: 18, [NVDA]: 18 },
    );
    chain.quotes.set(TSLA, (amount) => (amount * 99n) / E18);
    chain.mine(AT - 100, [
      ...WALLETS.map((to) => ({ token: TSLA, from: FUNDER, to, amount: E18 })),
      { token: NVDA, from: FUNDER, to: WALLETS[2]!, amount: E18 },
    ]);
    chain.setPrice(TSLA, AT, 100n * E18);
    const wallets = WALLETS.map((wallet, i) => ({ agentId: `a${i}`, wallet }));
    const { records, skipped } = await measureHour(chain, chain, "s1", wallets, AT);
    expect(skipped.map((s) => s.agentId)).to.deep.equal(["a2"]);
    const served = records.map((r, k) => {
      const body = canonicalJson(r.body);
      return { kind: r.kind, seal: toHex32(sha256(body)), leafIndex: k, body };
    });
    expect(JSON.parse(served[0]!.body).holdings[0].pooled.balance).to.equal(String(2n * E18));
    expect(pooledTotalProblems(served.slice(0, 1), served)).to.deep.equal([]);
  });

  it("a season snapshot left out of the sum, or not hashing to its seal, fails too", async () => {
    const season = await seasonSnapshots();
    const own = season.filter((i) => JSON.parse(i.body).agentId === "a0");
    const other = season.findIndex(
      (i) => JSON.parse(i.body).agentId === "a2" && JSON.parse(i.body).takenAt === AT,
    );
    const without = season.filter((_, k) => k !== other);
    expect(pooledTotalProblems(own, without)).to.have.length(1);
    const tampered = season.map((i, k) => (k === other ? { ...i, body: i.body.replace("s1", "s2") } : i));
    expect(pooledTotalProblems(own, tampered)[0]).to.equal(
      `snapshot ${season[other]!.seal} (leaf ${other}) does not hash to its seal`,
    );
  });

  it("summed once per thread, finds for each agent the disagreements summing the season per agent finds", async () => {
    const season = await seasonSnapshots();
    const agentOf = (i: ServedInput) => JSON.parse(i.body).agentId as string;
    // a1's total altered and re-sealed; one of a2's snapshots no longer hashing to its seal.
    const victim = season.findIndex((i) => agentOf(i) === "a1" && JSON.parse(i.body).takenAt === AT);
    const body = JSON.parse(season[victim]!.body);
    body.holdings[0].pooled.balance = String(6n * E18 + 1n);
    season[victim] = {
      ...season[victim]!,
      body: canonicalJson(body),
      seal: toHex32(sha256(canonicalJson(body))),
    };
    const broken = season.findIndex((i) => agentOf(i) === "a2");
    season[broken] = { ...season[broken]!, body: season[broken]!.body.replace("s1", "s2") };
    const served = (agent: string) => season.filter((i) => agentOf(i) === agent);
    const agents = ["a0", "a1", "a2"];
    const cache = new SeasonPooledSums();
    const found = agents.map((agent) => {
      // As deep.ts checks an agent: its inputs that hash (`good`), the others' as served, sorted.
      const own = served(agent).filter((i) => toHex32(sha256(i.body)) === i.seal);
      const others = agents.filter((a) => a !== agent);
      for (const other of others) if (!cache.has(other)) cache.add(other, served(other));
      const expected = pooledTotalProblems(own, [...own, ...others.flatMap(served)]);
      expect(cache.problems(agent, own, others)).to.deep.equal(expected);
      return expected.length;
    });
    // a0 and a1: the broken snapshot, and a total at AT that misses it; a2 checks only its good hour.
    expect(found).to.deep.equal([2, 2, 0]);
    // A season that is not the one summed (an agent missing, or the agent among the others) is left to the caller.
    expect(cache.problems("a0", served("a0"), ["a1"])).to.equal(undefined);
    expect(cache.problems("a0", served("a0"), ["a0", "a1", "a2"])).to.equal(undefined);
  });
});
