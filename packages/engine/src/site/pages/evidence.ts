import type { FastifyInstance } from "fastify";
import { apiGet } from "../api-client";
import { html } from "../html";
import { percent, utc } from "../format";
import { layout } from "../layout";
import { idParam } from "../params";
import type { EvidenceView } from "../../api/routes/evidence";
import type { SeasonsView } from "../../api/routes/seasons";

/**
 * `/agents/:id/evidence`: how well the agent's record is evidenced, on its own page and never in
 * the risk score ("How well evidenced a strategy is lives in evidence, deliberately apart").
 */
export async function evidencePage(
  app: FastifyInstance,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): Promise<string> {
  const id = idParam(params.id, "agent");
  const { seasons } = await apiGet<SeasonsView>(app, "/api/v1/seasons");
  const season = query.season === undefined ? (seasons[0]?.id ?? "") : idParam(query.season, "season");
  const e = await apiGet<EvidenceView>(app, `/api/v1/agents/${id}/evidence?season_id=${season}`);
  const body = html`<h1>Evidence: ${id}</h1>
    <p class="lead">
      How well this agent's record is evidenced, as of ${utc(e.asOf)}. This is kept apart from the
      <a href="/risk?season=${season}">risk score</a> on purpose: averaged together, a thoroughly documented
      risky vault would score like an undocumented safe one.
    </p>
    <dl id="evidence">
      <dt>Inputs measured from the chain</dt>
      <dd class="measured">
        ${percent(e.inputs.measuredShare)} (${e.inputs.measured} measured by the engine, ${e.inputs.declared}
        declared by the agent)
      </dd>
      <dt>Records anchored on chain</dt>
      <dd class="anchored">
        ${percent(e.records.anchoredShare)} (${e.records.anchored} of ${e.records.total}, newest anchor covers
        ${e.anchoredSize} leaves)
      </dd>
      <dt>Open calls</dt>
      <dd class="open-calls">${e.openCalls}</dd>
      <dt>Days observed</dt>
      <dd class="days">${e.daysObserved ?? "none yet"}</dd>
      <dt>Status</dt>
      <dd class="status">
        ${e.retiredAt === null ? "active" : html`<strong>retired</strong> since ${utc(e.retiredAt)}`}
      </dd>
    </dl>
    <p><a href="/agents/${id}?season=${season}">Back to ${id}</a></p>`;
  return layout({ title: `Evidence: ${id}`, nav: "risk", body });
}
