import type { FastifyInstance } from "fastify";
import { RISK_COMPONENTS, type RiskComponent } from "@augur/scorer";
import { apiGet } from "../api-client";
import { SitePageError } from "../errors";
import { fixed, shortHex, utc } from "../format";
import { html } from "../html";
import { layout } from "../layout";
import { idParam } from "../params";
import type { RiskComponentView } from "../../api/routes/risk-components";
import type { SeasonsView } from "../../api/routes/seasons";
import { RISK_LABELS } from "./risk";

function componentParam(value: unknown): RiskComponent {
  if (typeof value === "string" && (RISK_COMPONENTS as readonly string[]).includes(value))
    return value as RiskComponent;
  throw new SitePageError(404, "UNKNOWN_COMPONENT", `component must be one of ${RISK_COMPONENTS.join(", ")}`);
}

/** An input as one line of text: numbers and strings as they are, anything larger as JSON. */
const inputText = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);

/**
 * `/risk/:component`: one risk component published on its own — per vault the reading, why it is
 * unknown, and the inputs it was read from, with its seal — so the total can be checked against it.
 */
export async function riskComponentPage(
  app: FastifyInstance,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): Promise<string> {
  const component = componentParam(params.component);
  const { seasons } = await apiGet<SeasonsView>(app, "/api/v1/seasons");
  const label = RISK_LABELS[component]!;
  if (seasons.length === 0)
    return layout({
      title: label,
      nav: "risk",
      body: html`<h1>${label}</h1>
        <p>No season yet.</p>`,
    });
  const season = query.season === undefined ? seasons[0]!.id : idParam(query.season, "season");
  const view = await apiGet<RiskComponentView>(app, `/api/v1/seasons/${season}/risk/components/${component}`);
  const methodology = html`<span id="methodology">${view.methodology}</span>`;
  // The weight of the methodology the readings name (null for one this build does not carry).
  const weight = view.weightBps === null ? "" : `, weight ${fixed(view.weightBps / 100, 1)} %`;
  const body = html`<h1>${label}</h1>
    <p class="lead">
      One of the six components of the
      <a href="/risk?season=${season}">vault risk score</a> (${methodology}${weight}), published on its own: 0
      is no risk from this source, 1 the worst, “unknown” is not measured and does not vote. Each reading is
      sealed with the inputs it came from ${view.asOf === null ? "" : html`(as of ${utc(view.asOf)})`}.
    </p>
    ${view.readings.length === 0
      ? html`<p>No reading yet in season ${season}.</p>`
      : html`<div class="table-wrap">
          <table id="readings">
            <thead>
              <tr>
                <th>Vault</th>
                <th class="num">Reading</th>
                <th>Inputs</th>
                <th>Seal</th>
              </tr>
            </thead>
            <tbody>
              ${view.readings.map(
                (r) =>
                  html`<tr data-vault="${r.vault_id}">
                    <td><a href="/agents/${r.vault_id}?season=${season}">${r.vault_id}</a></td>
                    <td class="num reading">
                      ${r.reading === null
                        ? html`<span class="muted">unknown</span>
                            <span class="reason">${r.reason ?? ""}</span>`
                        : fixed(r.reading, 3)}
                    </td>
                    <td class="inputs">
                      ${Object.entries(r.inputs).map(
                        ([k, v]) => html`<div><code>${k}</code>: ${inputText(v)}</div>`,
                      )}
                    </td>
                    <td><code title="${r.seal}">${shortHex(r.seal)}</code> · ${r.anchor.status}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`}`;
  return layout({ title: label, nav: "risk", body });
}
