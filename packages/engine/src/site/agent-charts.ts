import type { FastifyInstance } from "fastify";
import { lineChart } from "./charts";
import { fixed, percent, utc } from "./format";
import { html, type SafeHtml } from "./html";
import type { HistoryView } from "../api/routes/history";

/** One point of an agent's score over time: when it was scored and the overall score (null: unranked). */
export interface ScorePoint {
  readonly asOf: number;
  readonly score: number | null;
}

/**
 * The agent's sealed score rows from `GET /api/v1/agents/:id/scores` (the score history), or
 * null when this engine does not serve that route. Read leniently: the rows are the first array
 * in the answer, each with `asOf` (or `as_of`) and `score`.
 */
export async function scoreHistory(
  app: FastifyInstance,
  agent: string,
  season: string,
): Promise<ScorePoint[] | null> {
  const res = await app.inject({
    method: "GET",
    url: `/api/v1/agents/${agent}/scores?season_id=${season}&limit=500`,
  });
  if (res.statusCode !== 200) return null;
  const body = res.json() as Record<string, unknown>;
  const rows = Object.values(body).find(Array.isArray) as Record<string, unknown>[] | undefined;
  if (!rows) return null;
  return rows
    .map((r) => ({ asOf: Number(r.asOf ?? r.as_of), score: typeof r.score === "number" ? r.score : null }))
    .filter((p) => Number.isFinite(p.asOf))
    .sort((a, b) => a.asOf - b.asOf);
}

/** The score-over-time chart (0–100, higher is better), with the hours as a table. */
export function scoreChart(points: readonly ScorePoint[] | null): SafeHtml {
  if (points === null)
    return html`<p class="muted" id="score-history">This engine serves no score history yet.</p>`;
  const scored = points.filter((p): p is { asOf: number; score: number } => p.score !== null);
  if (scored.length === 0)
    return html`<p class="muted" id="score-history">No hour has given this agent a score yet.</p>`;
  const first = scored[0]!;
  const last = scored.at(-1)!;
  const summary = `Augur score over ${scored.length} scored hour${scored.length === 1 ? "" : "s"}, from ${fixed(first.score)} on ${utc(first.asOf)} to ${fixed(last.score)} on ${utc(last.asOf)}.`;
  return html`<figure id="score-history">
    ${lineChart(
      scored.map((p) => ({ x: p.asOf, y: p.score })),
      {
        id: "score-chart",
        title: "Augur score over time (0–100, higher is better)",
        summary,
        yRange: [0, 100],
        yLabel: (y) => y.toFixed(0),
        xLabel: (x) => utc(x).slice(5, 16),
      },
    )}
    <figcaption>${summary}</figcaption>
  </figure>`;
}

/** Resolved calls grouped by stated confidence: 10-point bins, voids left out (they count as nothing). */
export function calibrationBins(
  calls: HistoryView["calls"],
): { from: number; stated: number; hitRate: number; calls: number }[] {
  const bins = new Map<number, { stated: number; hits: number; calls: number }>();
  for (const c of calls) {
    if (c.outcome === "void") continue;
    const confidence = c.confidenceBps / 100;
    const from = Math.min(90, Math.floor(confidence / 10) * 10);
    const bin = bins.get(from) ?? { stated: 0, hits: 0, calls: 0 };
    bin.stated += confidence;
    bin.hits += c.outcome === "hit" ? 1 : 0;
    bin.calls += 1;
    bins.set(from, bin);
  }
  return [...bins.entries()]
    .sort(([a], [b]) => a - b)
    .map(([from, b]) => ({
      from,
      stated: b.stated / b.calls,
      hitRate: (100 * b.hits) / b.calls,
      calls: b.calls,
    }));
}

/** Hit rate against stated confidence: a calibrated agent's dots sit on the dashed diagonal. */
export function calibrationChart(history: HistoryView): SafeHtml {
  const bins = calibrationBins(history.calls);
  if (bins.length === 0)
    return html`<p class="muted" id="calibration">No resolved call yet, so there is nothing to compare.</p>`;
  const summary = bins
    .map(
      (b) =>
        `${b.from}–${b.from + 10} % stated: ${fixed(b.hitRate, 0)} % hit over ${b.calls} call${b.calls === 1 ? "" : "s"}`,
    )
    .join("; ");
  return html`<figure id="calibration">
      ${lineChart(
        bins.map((b) => ({ x: b.stated, y: b.hitRate })),
        {
          id: "calibration-chart",
          title: "Calibration: hit rate against stated confidence",
          summary: `Dashed line: hit rate equal to confidence. ${summary}.`,
          xRange: [0, 100],
          yRange: [0, 100],
          dotsOnly: true,
          diagonal: true,
          yLabel: (y) => `${y.toFixed(0)} %`,
          xLabel: (x) => `${x.toFixed(0)} %`,
        },
      )}
      <figcaption>
        Horizontal: the confidence the agent stated (mean of each 10-point bin); vertical: how often those
        calls hit. On the dashed line the agent is as right as it says. Voided calls count as nothing.
      </figcaption>
    </figure>
    <div class="table-wrap">
      <table id="calibration-table">
        <thead>
          <tr>
            <th scope="col">Stated confidence</th>
            <th scope="col" class="num">Mean stated</th>
            <th scope="col" class="num">Hit rate</th>
            <th scope="col" class="num">Resolved calls</th>
          </tr>
        </thead>
        <tbody>
          ${bins.map(
            (b) =>
              html`<tr>
                <td>${b.from}–${b.from + 10} %</td>
                <td class="num">${fixed(b.stated, 1)} %</td>
                <td class="num">${percent(b.hitRate / 100, 0)}</td>
                <td class="num">${b.calls}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}
