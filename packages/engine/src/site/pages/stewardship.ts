import type { FastifyInstance } from "fastify";
import { apiGet } from "../api-client";
import { lineChart } from "../charts";
import { fixed } from "../format";
import { html } from "../html";
import { layout } from "../layout";

interface Stewardship {
  readonly version: string;
  readonly thresholds: {
    holdersArmAbove: number;
    holdersDeclineBps: number;
    volumeFloorUsd: number;
    volumeRunDays: number;
    windowDays: number;
  };
  readonly state: "normal" | "maintenance" | "wind-down" | null;
  readonly stateSince: string | null;
  readonly days: readonly {
    date: string;
    at: number;
    holders: number;
    organicVolumeUsd: number;
    excludedVolumeUsd: number;
  }[];
  readonly clusters: readonly { criterion: string; addresses: string[]; measures: Record<string, unknown> }[];
}

const STATE_TEXT: Record<string, string> = {
  normal: "active",
  maintenance: "maintenance mode",
  "wind-down": "wind-down",
};

/** `/stewardship`: the kill-rule monitor's state, series and excluded-volume evidence. */
export async function stewardshipPage(app: FastifyInstance): Promise<string> {
  const s = await apiGet<Stewardship>(app, "/api/v1/stewardship");
  const t = s.thresholds;
  const rules = html`<h2>The triggers</h2>
    <ul>
      <li>
        Holders: distinct holders fall by ${fixed(t.holdersDeclineBps / 100, 0)} % or more, first to last day
        of any ${t.windowDays}-day window, once holders have exceeded ${t.holdersArmAbove} → wind-down.
      </li>
      <li>
        Volume: organic volume under $${t.volumeFloorUsd} a day for ${t.volumeRunDays} consecutive days →
        maintenance mode.
      </li>
      <li>Both within one window → wind-down.</li>
    </ul>
    <p><a href="/methodology#stewardship">How each number is measured</a> (${s.version})</p>`;
  const body =
    s.state === null
      ? html`<h1>Stewardship</h1>
          <p class="state" id="stewardship-state">State: not measured yet</p>
          <p>
            No daily stewardship measurement has been recorded yet, so there is no state, no holder or volume
            series and no excluded-volume evidence to show. Nothing here is assumed: the first measurement
            appears after the first epoch close the monitor records.
          </p>
          ${rules}`
      : html`<h1>Stewardship</h1>
          <p class="state" id="stewardship-state">
            State:
            ${STATE_TEXT[s.state] ?? s.state}${s.stateSince
              ? html` <span class="muted">since ${s.stateSince}</span>`
              : ""}
          </p>
          ${rules}
          <h2>Distinct holders</h2>
          <figure>
            ${lineChart(
              s.days.map((d) => ({ x: d.at, y: d.holders })),
              {
                id: "holders-chart",
                title: "Distinct holders per day",
                summary: `Holders over ${s.days.length} days; the trigger arms above ${t.holdersArmAbove}.`,
                yLabel: (y) => y.toFixed(0),
                xLabel: (x) => new Date(x * 1000).toISOString().slice(0, 10),
              },
            )}
          </figure>
          <h2>Organic volume</h2>
          <figure>
            ${lineChart(
              s.days.map((d) => ({ x: d.at, y: d.organicVolumeUsd })),
              {
                id: "volume-chart",
                title: "Organic volume per day (USD)",
                summary: `Organic volume over ${s.days.length} days against the $${t.volumeFloorUsd} floor.`,
                yLabel: (y) => `$${y.toFixed(0)}`,
                xLabel: (x) => new Date(x * 1000).toISOString().slice(0, 10),
              },
            )}
          </figure>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col" class="num">Holders</th>
                  <th scope="col" class="num">Organic USD</th>
                  <th scope="col" class="num">Excluded USD</th>
                </tr>
              </thead>
              <tbody>
                ${s.days.map(
                  (d) =>
                    html`<tr>
                      <td>${d.date}</td>
                      <td class="num">${d.holders}</td>
                      <td class="num">${fixed(d.organicVolumeUsd, 2)}</td>
                      <td class="num">${fixed(d.excludedVolumeUsd, 2)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <h2>Excluded-volume clusters</h2>
          ${s.clusters.length === 0
            ? html`<p>No cluster was excluded.</p>`
            : s.clusters.map(
                (c) =>
                  html`<details>
                    <summary>Criterion (${c.criterion}): ${c.addresses.length} addresses</summary>
                    <pre><code>${JSON.stringify(c, null, 2)}</code></pre>
                  </details>`,
              )}`;
  return layout({ title: "Stewardship", nav: "stewardship", body });
}
