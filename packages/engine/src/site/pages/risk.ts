import type { FastifyInstance } from "fastify";
import {
  isRiskSortKey,
  RISK_COMPONENTS,
  riskMethodology,
  sortRiskRows,
  type RiskRow,
  type RiskSortKey,
} from "@augur/scorer";
import { apiGet } from "../api-client";
import { reasonBar } from "../bars";
import { SitePageError } from "../errors";
import { fixed, percent, sortValue } from "../format";
import { html } from "../html";
import { termLink } from "../glossary";
import { layout } from "../layout";
import { idParam } from "../params";
import type { SeasonRiskView } from "../../api/routes/risk";
import type { SeasonsView } from "../../api/routes/seasons";
import { sortableHeader } from "./sortable";

/** Each component's name on the risk page and on its own page. */
export const RISK_LABELS: Record<string, string> = {
  worst_fall: "Worst fall",
  shared_exposure: "Shared exposure",
  liquidation: "Distance to liquidation",
  exit: "Could you get out",
  largest_depositor: "Largest depositor",
  stopped: "Stopped operating",
};

/** Every column sorts: the vault id A–Z, the rest worst (or most measured) first, unknown last. */
type PageSort = RiskSortKey | "vault" | "measurable";

function riskSort(value: unknown): PageSort | null {
  if (value === undefined) return null;
  if (typeof value === "string" && (value === "vault" || value === "measurable" || isRiskSortKey(value)))
    return value;
  throw new SitePageError(
    400,
    "BAD_PARAMETER",
    `sort must be one of vault, score, measurable, ${RISK_COMPONENTS.join(", ")}`,
  );
}

function sortedRows(rows: readonly RiskRow[], sort: PageSort | null): readonly RiskRow[] {
  if (sort === null) return rows;
  if (sort === "vault")
    return [...rows].sort((a, b) => (a.vault_id < b.vault_id ? -1 : a.vault_id > b.vault_id ? 1 : 0));
  if (sort === "measurable") {
    return [...rows].sort(
      (a, b) =>
        b.measurable_share - a.measurable_share ||
        (a.vault_id < b.vault_id ? -1 : a.vault_id > b.vault_id ? 1 : 0),
    );
  }
  return sortRiskRows(rows, sort);
}

/** `/risk`: every vault's risk score with all six components and its measurable share. */
export async function riskPage(app: FastifyInstance, query: Record<string, unknown>): Promise<string> {
  const { seasons } = await apiGet<SeasonsView>(app, "/api/v1/seasons");
  if (seasons.length === 0)
    return layout({
      title: "Risk",
      nav: "risk",
      body: html`<h1>Vault risk</h1>
        <p>No season yet.</p>`,
    });
  const season = query.season === undefined ? seasons[0]!.id : idParam(query.season, "season");
  const sort = riskSort(query.sort);
  const report = await apiGet<SeasonRiskView>(app, `/api/v1/seasons/${season}/risk`);
  const rows = sortedRows(report.rows, sort);
  // Weights and the minimum of the methodology the rows name (the registry may switch versions).
  const method = riskMethodology(report.methodology);
  const methodology = html`<span id="methodology">${report.methodology}</span>`;
  const weight = (k: (typeof RISK_COMPONENTS)[number]) =>
    method === undefined ? "" : ` (${fixed(method.weightsBps[k] / 100, 1)} %)`;
  const head = (key: PageSort, label: string) =>
    sortableHeader({
      label,
      key,
      href: `/risk?season=${encodeURIComponent(season)}&sort=${key}`,
      state: sort === key ? (key === "vault" ? "ascending" : "descending") : "none",
      numeric: key !== "vault",
      firstOrder: key === "vault" ? "ascending" : "descending",
    });
  const c = report.coverage;
  const body = html`<h1>Vault risk</h1>
    <p class="lead">
      How much could go wrong with each agent's vault (${methodology}), from risk alone. This is the
      ${termLink("risk_score", "risk score")}, <strong>higher = riskier</strong>: it is not the Augur score
      (higher = better) and says nothing about returns.
      ${method === undefined
        ? ""
        : html`Below ${percent(method.minimumMeasurableShare, 0)} measurable no score is published.`}
      The measurable share stands beside every row.
    </p>
    <h2>What this score is not</h2>
    <ul>
      <li>
        <strong>It does not say which strategy is good.</strong> Returns never enter it, in no form. Sorting
        this table tells you what could hurt you, not what to buy.
      </li>
      <li>
        <strong>It is not how well a vault is documented.</strong> Evidence is graded elsewhere on purpose
        (each vault's “evidence” link below): mixed together, a well-documented dangerous vault and an
        undocumented safe one would look alike.
      </li>
      <li>
        <strong>Its weights are a choice, not a measurement.</strong> No record of failures exists to fit them
        to, so we publish them for you to dispute, and show every component so you can ignore the total.
      </li>
    </ul>
    <h2>Components</h2>
    <p id="components">
      Each component is published on its own page, with the inputs every reading came from; the score adds no
      measurement of its own:
      ${RISK_COMPONENTS.map(
        (k, i) =>
          html`${i === 0 ? "" : ", "}<a href="/risk/${k}?season=${encodeURIComponent(season)}"
              >${RISK_LABELS[k]}</a
            >`,
      )}.
    </p>
    <h2>Coverage</h2>
    <p id="coverage">
      Scored vaults hold ${percent(c.capital_share)} of the capital and are ${percent(c.vault_share)} of the
      vaults; ${c.unscored} vault${c.unscored === 1 ? " has" : "s have"} no score. New and small vaults lack
      the history a score needs, so they are the ones left out.
    </p>
    <h2>Vaults</h2>
    ${rows.length === 0
      ? html`<p>No agent is registered in season ${season}.</p>`
      : html`<div class="table-wrap">
          <table data-sortable id="risk">
            <thead>
              <tr>
                ${head("vault", "Vault")}${head("score", "Risk score (higher = riskier)")}${head(
                  "measurable",
                  "Measurable share",
                )}${RISK_COMPONENTS.map((k) => head(k, `${RISK_LABELS[k]}${weight(k)}`))}
              </tr>
            </thead>
            <tbody>
              ${rows.map(
                (r) =>
                  html`<tr data-vault="${r.vault_id}">
                    <td data-value="${r.vault_id}">
                      <a href="/agents/${r.vault_id}?season=${season}">${r.vault_id}</a>
                      <a class="evidence muted" href="/agents/${r.vault_id}/evidence?season=${season}"
                        >evidence</a
                      >
                    </td>
                    <td class="num score" data-value="${sortValue(r.score)}">
                      ${r.score === null ? reasonBar(r.reason) : fixed(r.score)}
                    </td>
                    <td class="num measurable" data-value="${r.measurable_share}">
                      ${percent(r.measurable_share)}
                    </td>
                    ${RISK_COMPONENTS.map(
                      (k) =>
                        html`<td class="num" data-value="${sortValue(r.components[k])}">
                          ${r.components[k] === null
                            ? html`<span class="muted">unknown</span>`
                            : fixed(r.components[k], 3)}
                        </td>`,
                    )}
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`}
    <p class="legend">
      Each component is 0–1 (1 = the most risk), its weight in brackets; “unknown” is not measured and is left
      out of the total, which is why a vault can be only partly ${termLink("measurable", "measurable")}.
      <a href="/methodology#risk">How each component is read</a>
    </p>`;
  return layout({ title: "Risk", nav: "risk", body, script: true });
}
