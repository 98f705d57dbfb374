import {
  latestAnchor,
  latestScoringTime,
  leaderboard,
  scoreAtWithAnchor,
  type Season,
  type Store,
} from "@augur/engine";
import type { DemoTrader } from "./trader";

export interface TableRow {
  readonly agent: string;
  readonly style: string;
  readonly score: number | null;
  readonly rank: number | null;
  readonly reason: string | null;
  readonly hits: bigint;
  readonly misses: bigint;
  readonly voids: bigint;
  /** The measured return and max drawdown its score manifest states (fractions), null if unmeasured. */
  readonly measured: { readonly return: number; readonly max_drawdown: number } | null;
}

/** The measured return and drawdown of the agent's score manifest at `asOf`. */
async function measuredOf(store: Store, agentId: string, seasonId: string, asOf: number | undefined) {
  if (asOf === undefined) return null;
  const row = await scoreAtWithAnchor(store.db, agentId, seasonId, asOf);
  const measured = row
    ? (JSON.parse(row.manifest) as { measured: TableRow["measured"] | null }).measured
    : null;
  return measured ? { return: measured.return, max_drawdown: measured.max_drawdown } : null;
}

/** The hour's standing: engine scores (latest scoring), on-chain hits/misses, anchored size. */
export async function readStanding(store: Store, seasonId: string, traders: readonly DemoTrader[]) {
  const asOf = await latestScoringTime(store.db, seasonId);
  const scores = asOf === undefined ? [] : await leaderboard(store.db, seasonId, asOf, 1000, 0);
  const anchor = await latestAnchor(store.db);
  const rows: TableRow[] = [];
  for (const trader of traders) {
    const row = scores.find((s) => s.agent_id === trader.agent.id);
    const record = (await trader.ledger.ledger.getFunction("record")(trader.agent.key.address)) as {
      hits: bigint;
      misses: bigint;
      voids: bigint;
    };
    rows.push({
      agent: trader.agent.id,
      style: trader.agent.style,
      score: row?.score ?? null,
      rank: row?.rank ?? null,
      reason: row?.reason ?? (row ? null : "not scored yet"),
      hits: record.hits,
      misses: record.misses,
      voids: record.voids,
      measured: row ? await measuredOf(store, trader.agent.id, seasonId, asOf) : null,
    });
  }
  rows.sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9) || a.agent.localeCompare(b.agent));
  return {
    rows,
    asOf: asOf ?? null,
    anchoredTreeSize: anchor?.tree_size ?? 0,
    anchors: anchor ? anchor.anchor_index + 1 : 0,
  };
}

type Standing = Awaited<ReturnType<typeof readStanding>>;

/** "1 anchor", "2 anchors". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Unix seconds as ISO 8601 to the second, UTC: 2026-12-02T08:59:12Z. */
export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A row of the table with a number in the score column: agent id (1) and score (2). */
export const SCORED_ROW = /^ {2}([a-z0-9-]+)\s+[a-z-]+\s+(\d+\.\d)\s+\d+\s/m;

/** A fixed-width table: one header line, one line per agent. */
export function formatTable(hour: number, chainTime: number, seasonId: string, standing: Standing) {
  return [
    `hour ${hour} · season ${seasonId} · chain time ${isoTime(chainTime)} · ` +
      `anchored tree size ${standing.anchoredTreeSize} (${plural(standing.anchors, "anchor")})`,
    ...tableRows(standing),
  ].join("\n");
}

/** The line a season's end gets, with its final standing (the last scoring, now sealed). */
export function formatSeasonEnd(ended: Season, next: Season, final: Standing) {
  const scored = final.rows.filter((r) => r.score !== null).length;
  return [
    `season ${ended.id} ended at ${isoTime(ended.ends_at)}: final scores as of ` +
      `${final.asOf === null ? "—" : isoTime(final.asOf)} sealed (${plural(scored, "agent")} scored); ` +
      `season ${next.id} runs to ${isoTime(next.ends_at)}, the agents register for it`,
    ...tableRows(final),
  ].join("\n");
}

/** A fraction as a percentage: 0.3412 → "+34.1 %" (signed) or "34.12 %". */
function percent(fraction: number, digits: number, signed: boolean): string {
  const shown = (fraction * 100).toFixed(digits);
  const zero = Number(shown) === 0; // no "-0.0 %": a loss too small to show is none
  const text = `${zero ? (0).toFixed(digits) : shown} %`;
  return signed && !zero && fraction > 0 ? `+${text}` : text;
}

function tableRows(standing: Standing): string[] {
  const lines = [
    `  ${"agent".padEnd(24)} ${"style".padEnd(16)} ${"score".padStart(6)} ${"rank".padStart(4)} ${"hit/miss/void".padStart(13)} ${"return".padStart(8)} ${"drawdown".padStart(8)}`,
  ];
  for (const row of standing.rows) {
    const score = row.score === null ? "—" : row.score.toFixed(1);
    const rank = row.rank === null ? "—" : String(row.rank);
    const note = row.score === null && row.reason ? `  (${row.reason})` : "";
    const ret = row.measured ? percent(row.measured.return, 1, true) : "—";
    const drawdown = row.measured ? percent(row.measured.max_drawdown, 2, false) : "—";
    lines.push(
      `  ${row.agent.padEnd(24)} ${row.style.padEnd(16)} ${score.padStart(6)} ${rank.padStart(4)} ` +
        `${`${row.hits}/${row.misses}/${row.voids}`.padStart(13)} ${ret.padStart(8)} ${drawdown.padStart(8)}${note}`,
    );
  }
  return lines;
}
