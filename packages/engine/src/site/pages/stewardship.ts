import type { FastifyInstance } from "fastify";
import { apiGet } from "../api-client";
import { lineChart } from "../charts";
import { fixed, shortHex, utc } from "../format";
import { html } from "../html";
import { termLink } from "../glossary";
import { layout } from "../layout";
import type { StewardshipView } from "../../api/routes/stewardship";

const STATE_TEXT: Record<string, string> = {
  normal: "active",
  maintenance: "maintenance mode",
  "wind-down": "wind-down",
};

/** The triggers that held on a day, in words ("—" when none did). */
function firedText(d: StewardshipView["days"][number]): string {
  const fired = [
    d.holdersTrigger ? "holders" : "",
    d.volumeTrigger ? "volume" : "",
    d.bothTrigger ? "both" : "",
  ].filter(Boolean);
  return fired.length === 0 ? "—" : fired.join(", ");
}

/** The LP timelock as last read (the alarm itself is in every page's banner, mode-banner.ts). */
function lpLockSection(s: StewardshipView) {
  const lock = s.lpLock;
  if (!lock) return "";
  return html`<h2 id="lp-lock">LP timelock</h2>
    <p>
      Lock <code>${lock.lock}</code> holds position #${lock.position} of
      <code>${lock.positionManager}</code> until ${utc(lock.unlockAt)}. Read at block ${lock.block}: held by
      <code>${lock.holder}</code>, liquidity ${lock.liquidity} —
      ${lock.alarm
        ? html`<strong>alarm${s.lpLockAlarm ? ` since ${s.lpLockAlarm.since}` : ""}: ${lock.alarm}</strong>`
        : "in place"}.
    </p>`;
}

/** `/stewardship`: the kill-rule monitor's state, series and excluded-volume evidence. */
export async function stewardshipPage(app: FastifyInstance): Promise<string> {
  const s = await apiGet<StewardshipView>(app, "/api/v1/stewardship");
  const t = s.thresholds;
  const rules = html`<h2>The triggers (${termLink("thresholds", "thresholds")})</h2>
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
            No daily stewardship measurement has been recorded yet (no day has closed since the monitor
            started, or no monitor is configured), so there is no state, no holder or volume series and no
            excluded-volume evidence to show. Nothing here is assumed: the first measurement appears after the
            first epoch close (UTC midnight) the monitor records.
          </p>
          ${rules}`
      : html`<h1>Stewardship</h1>
          <p class="state" id="stewardship-state">
            State:
            ${STATE_TEXT[s.state] ?? s.state}${s.stateSince
              ? html` <span class="muted">since ${s.stateSince}</span>`
              : ""}
          </p>
          <p class="muted">
            Measured at ${utc(s.asOf)} for token <code>${s.monitored?.token ?? "—"}</code> on chain
            ${s.monitored?.chainId ?? "—"}: ${s.monitored?.pools.length ?? 0} pools,
            ${s.monitored?.excluded.length ?? 0} excluded addresses. Each day is a sealed record in the Merkle
            log.
          </p>
          ${lpLockSection(s)} ${rules}
          <h2>Distinct holders</h2>
          <figure>
            ${lineChart(
              s.days.map((d) => ({ x: d.at, y: d.holders })),
              {
                id: "holders-chart",
                title: "Distinct holders per day",
                summary: `Holders over ${s.days.length} days; the trigger arms above ${t.holdersArmAbove} (dashed line).`,
                yLabel: (y) => y.toFixed(0),
                xLabel: (x) => new Date(x * 1000).toISOString().slice(5, 10),
                thresholds: [{ y: t.holdersArmAbove, label: `arms above ${t.holdersArmAbove}` }],
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
                summary: `Organic volume over ${s.days.length} days against the $${t.volumeFloorUsd} floor (dashed line).`,
                yLabel: (y) => `$${y.toFixed(0)}`,
                xLabel: (x) => new Date(x * 1000).toISOString().slice(5, 10),
                thresholds: [{ y: t.volumeFloorUsd, label: `$${t.volumeFloorUsd} floor` }],
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
                  <th scope="col" class="num">Days under floor</th>
                  <th scope="col">Triggers</th>
                  <th scope="col">State</th>
                  <th scope="col">Seal</th>
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
                      <td class="num">${d.volumeDaysBelow}</td>
                      <td>${firedText(d)}</td>
                      <td>${STATE_TEXT[d.state] ?? d.state}</td>
                      <td><code title="${d.seal}">${shortHex(d.seal)}</code> ${d.anchor.status}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <h2>Excluded-volume clusters (latest ${t.windowDays}-day window)</h2>
          ${s.clusters.length === 0
            ? html`<p>No cluster was excluded.</p>`
            : s.clusters.map(
                (c) =>
                  html`<details>
                    <summary>
                      Criterion (${c.criterion}):
                      ${c.addresses.length === 0
                        ? `${c.measures.wallets ?? 0} lone wallets, in aggregate (no address is named)`
                        : `${c.addresses.length} addresses`}
                    </summary>
                    <pre><code>${JSON.stringify(c, null, 2)}</code></pre>
                  </details>`,
              )}`;
  return layout({ title: "Stewardship", nav: "stewardship", body });
}
