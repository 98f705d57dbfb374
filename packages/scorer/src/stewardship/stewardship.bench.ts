// Stewardship bench: `npx tsx packages/scorer/src/stewardship/stewardship.bench.ts [transfers]`.
// One day of random wallet-to-wallet transfers and swaps through one pool; prints figures only.
import { seededRandom } from "../referee/synthetic-input";
import type { PoolSwap, TokenTransfer } from "./chain-data";
import { applyTransfers } from "./holders";
import { measureDay } from "./measure-day";

const count = Number(process.argv[2] ?? 100_000);
const random = seededRandom(11);
const wallets = Array.from({ length: 20_000 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
const pool = `0x${"ab".repeat(20)}`;
const asOf = 1_800_000_000;
const pick = () => wallets[Math.floor(random() * wallets.length)]!;
const transfers: TokenTransfer[] = [];
const swaps: PoolSwap[] = [];
for (let i = 0; i < count; i++) {
  const time = asOf - 86_400 + Math.floor(random() * 86_400);
  const tx = `0x${i.toString(16).padStart(64, "0")}`;
  const amount = BigInt(Math.floor(random() * 1e6)) * 10n ** 18n;
  if (random() < 0.3) {
    const taker = pick();
    const side = random() < 0.5 ? "buy" : "sell";
    swaps.push({
      tx,
      logIndex: 1,
      time,
      pool,
      taker,
      side,
      tokens: amount + 1n,
      usd: Number(amount / 10n ** 18n) / 1e4,
    });
    transfers.push({
      tx,
      logIndex: 0,
      time,
      from: side === "buy" ? pool : taker,
      to: side === "buy" ? taker : pool,
      amount,
    });
  } else {
    transfers.push({ tx, logIndex: 0, time, from: pick(), to: pick(), amount });
  }
}
const config = { decimals: 18, pools: [pool], excluded: [] };
const start = performance.now();
const balances = applyTransfers(new Map(), transfers);
const result = measureDay({ asOf, balances, transfers, swaps, config });
const seconds = (performance.now() - start) / 1000;
console.log(
  `stewardship bench: ${transfers.length.toLocaleString("en")} transfers, ${swaps.length.toLocaleString("en")} swaps, Node ${process.version}`,
);
console.log(`  balances + measureDay  ${seconds.toFixed(2)} s   target < 5 s`);
console.log(
  `  holders ${result.holders}, evidence ${result.evidence.length}, organic $${result.organicVolumeUsd.toFixed(0)}`,
);
