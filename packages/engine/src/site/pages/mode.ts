import type { FastifyInstance } from "fastify";
import { apiGet } from "../api-client";
import { shortHex } from "../format";
import { html } from "../html";
import { layout } from "../layout";
import type { ModeView } from "../../api/routes/modes";
import { noticeLine } from "../mode-banner";
import { describeCause } from "../../modes/describe";

const MODE_TEXT: Record<ModeView["mode"], string> = {
  active: "active",
  maintenance: "maintenance mode",
  "wind-down": "winding down",
  archived: "read-only archive",
};

/** `/mode`: the mode in force, every sealed mode record and every notice, each with its proof link. */
export async function modePage(app: FastifyInstance): Promise<string> {
  const view = await apiGet<ModeView>(app, "/api/v1/mode");
  const proof = (seal: string) =>
    html`<a href="/api/v1/anchors/leaves/${seal}"><code>${shortHex(seal)}</code></a>`;
  const history =
    view.history.length === 0
      ? html`<p class="muted">
          No mode change has been recorded: the system has been active from the start.
        </p>`
      : html`<div class="table-wrap">
          <table id="mode-history">
            <thead>
              <tr>
                <th scope="col">Mode</th>
                <th scope="col">Since</th>
                <th scope="col">Declared</th>
                <th scope="col">Cause</th>
                <th scope="col">Record</th>
              </tr>
            </thead>
            <tbody>
              ${view.history.map(
                (m) =>
                  html`<tr>
                    <td>${MODE_TEXT[m.mode as ModeView["mode"]] ?? m.mode}</td>
                    <td>${m.since}</td>
                    <td>${m.declared}</td>
                    <td class="prose">${describeCause(m.cause)}</td>
                    <td>${proof(m.seal)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`;
  const notices =
    view.notices.length === 0
      ? html`<p class="muted">No operator or methodology notice has been given.</p>`
      : html`<ul id="notices">
          ${view.notices.map(
            (n) =>
              html`<li>
                ${noticeLine(n)}
                ${n.pending ? html`<strong>Pending.</strong>` : html`<span class="muted">In effect.</span>`}
                Record ${proof(n.seal)}
              </li>`,
          )}
        </ul>`;
  const body = html`<h1>Mode and notices</h1>
    <p class="state" id="mode-state">
      Mode: ${MODE_TEXT[view.mode]}${view.since ? html` <span class="muted">since ${view.since}</span>` : ""}
    </p>
    ${view.cause ? html`<p>${describeCause(view.cause)}.</p>` : ""}
    <p>
      The mode follows the sealed daily stewardship record (maintenance while the volume trigger holds,
      wind-down when the holder trigger fires) or an operator notice, which takes effect 30 days after it is
      given. A new formula version is announced at least 14 days ahead and applies only forward.
      <a href="/methodology#stewardship">The rules</a>
    </p>
    <h2>History</h2>
    ${history}
    <h2>Notices</h2>
    ${notices}
    <p><a href="/receipt">The final receipt</a> (once the wind-down is announced)</p>`;
  return layout({ title: "Mode and notices", nav: "mode", body });
}
