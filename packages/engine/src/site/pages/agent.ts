import type { FastifyInstance } from "fastify";
import { TERM_NAMES } from "@augur/scorer";
import { apiGet } from "../api-client";
import { reasonBar, valueBar } from "../bars";
import { lineChart } from "../charts";
import { SitePageError } from "../errors";
import { assetNames, assetText, type AssetNames } from "../assets";
import { creatorNames, creatorText } from "../creators";
import { decisionLinks, decisionLinksBlock } from "../decision-links";
import { calibrationChart, scoreChart, scoreHistory } from "../agent-charts";
import { fixed, hoursText, percent, shortHex, utc } from "../format";
import { termLink, TERMS, type TermKey } from "../glossary";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { idParam } from "../params";
import type { HistoryView } from "../../api/routes/history";
import type { ScoreView } from "../../api/routes/scores";
import type { EvidenceView } from "../../api/routes/evidence";
import type { SeasonsView } from "../../api/routes/seasons";
import type { CallPoint } from "@augur/records";

/** When a listed call was revealed; an expired commit's expiry; an open commit's reveal deadline. */
function whenCell(c: CallPoint): SafeHtml | string {
  if (c.expired) return html`never: expired ${utc(c.resolvedAt)}`;
  if (c.direction === null) return html`not yet: reveal by ${utc(c.closesAt)}`;
  return utc(c.revealedAt);
}

type Fields = Record<string, unknown>;
const asFields = (v: unknown): Fields => (v !== null && typeof v === "object" ? (v as Fields) : {});
const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** The measured values behind each term, as the manifest states them. */
function measuredFor(term: string, m: Fields): SafeHtml {
  switch (term) {
    case "performance":
      return html`return ${percent(num(m.return), 2)}`;
    case "risk":
      return html`sigma ${fixed(num(m.sigma), 4)}, max drawdown ${percent(num(m.max_drawdown), 2)}, exposure
      ${fixed(num(m.exposure), 3)}`;
    case "consistency":
      return html`sigma ${fixed(num(m.sigma), 4)} per exposure ${fixed(num(m.exposure), 3)}`;
    case "calibration":
      return html`Brier ${fixed(num(m.brier), 3)} over ${num(m.calibration_calls) ?? 0} resolved calls`;
    case "longevity":
      return html`${fixed(num(m.days), 2)} days competing`;
    default: {
      const inputs = Array.isArray(m.creator_inputs) ? (m.creator_inputs as Fields[]) : [];
      return inputs.length === 0
        ? html`no other active agent of this creator`
        : html`${inputs.map(
            (c, i) =>
              html`${i > 0 ? ", " : ""}${String(c.agent)} ${fixed(num(c.performance))} (seal
                <span class="mono" title="${String(c.seal)}">${shortHex(String(c.seal))}</span>)`,
          )}`;
    }
  }
}

function termsTable(score: ScoreView): SafeHtml {
  const manifest = asFields(score.manifest);
  const measured = asFields(manifest.measured);
  const outputs = asFields(manifest.outputs);
  const weights = asFields(outputs.weights_used);
  return html`<p class="legend" id="terms-legend">
      Each term is 0–100, higher is better. A term that is ${termLink("not_measured", "not measured")} drops
      out and the others share its weight: “weight used” is each published weight divided by the sum of the
      measured ones.
    </p>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Term</th>
            <th scope="col" class="num">Value</th>
            <th scope="col">Bar</th>
            <th scope="col" class="num">${termLink("weights_used", "Weight used")}</th>
            <th scope="col">Measured</th>
          </tr>
        </thead>
        <tbody>
          ${TERM_NAMES.map((t) => {
            const value = num(score.terms[t]);
            return html`<tr>
              <th scope="row">${termLink(t)}</th>
              <td class="num">${fixed(value, 2)}</td>
              <td>${valueBar(value, t)}</td>
              <td class="num">${fixed(num(weights[t]), 3)}</td>
              <td>${manifest.measured === null ? "—" : measuredFor(t, measured)}</td>
            </tr>`;
          })}
        </tbody>
      </table>
    </div>`;
}

function dnaBlock(score: ScoreView): SafeHtml {
  const manifest = asFields(score.manifest);
  const measured = asFields(manifest.measured);
  const outputs = asFields(manifest.outputs);
  const dna = asFields(measured.dna);
  return html`<dl class="facts">
    ${Object.entries(dna).map(
      ([k, v]) =>
        html`<dt>${k in TERMS ? termLink(k as TermKey) : k}</dt>
          <dd>${typeof v === "number" ? fixed(v, 4) : html`<span class="muted">not measured</span>`}</dd>`,
    )}
    <dt>${termLink("match")}</dt>
    <dd>${fixed(num(measured.match), 4)}</dd>
    <dt>${termLink("multiplier")}</dt>
    <dd>${fixed(num(outputs.multiplier), 4)}</dd>
    <dt>weighted total</dt>
    <dd>${fixed(num(outputs.weighted), 4)}</dd>
  </dl>`;
}

/** The counts eligibility is decided on, from the manifest, so the reason can be checked. */
function inputsLine(score: ScoreView): SafeHtml {
  const inputs = asFields(asFields(score.manifest).inputs);
  return html`<p id="inputs">
    Inputs: ${num(inputs.snapshot_count) ?? "—"} snapshots, ${num(inputs.own_decision_count) ?? "—"} decisions
    by its own decider (of ${num(inputs.decision_count) ?? "—"}), ${num(inputs.trade_count) ?? "—"} trades. A
    rank needs at least 3 snapshots and 5 own decisions.
  </p>`;
}

function anchorBlock(score: ScoreView): SafeHtml {
  const a = score.anchor;
  if (a.status !== "anchored") {
    return html`<p>
      Anchor: <span class="status-pending" id="anchor-status">pending</span> — the seal sits at leaf
      ${score.leafIndex} of the log and joins the next anchor the keeper posts.
    </p>`;
  }
  return html`<p>Anchor: <span class="status-anchored" id="anchor-status">anchored</span></p>
    <dl class="facts">
      <dt>anchor index</dt>
      <dd>${a.anchorIndex}</dd>
      <dt>tree size</dt>
      <dd>${a.treeSize}</dd>
      <dt>leaf</dt>
      <dd>${score.leafIndex}</dd>
      <dt>root</dt>
      <dd class="mono seal">${a.root}</dd>
      <dt>transaction</dt>
      <dd class="mono seal">${a.txHash}</dd>
      <dt>block</dt>
      <dd>${a.blockNumber} (chain ${a.chainId})</dd>
      <dt>registry</dt>
      <dd class="mono seal">${a.registry}</dd>
      <dt>anchored at</dt>
      <dd>${utc(a.anchoredAt)}</dd>
    </dl>`;
}

function curve(history: HistoryView): SafeHtml {
  const points: { x: number; y: number }[] = [];
  let index = 1;
  history.snapshots.forEach((s, i) => {
    if (i > 0) {
      const prev = history.snapshots[i - 1]!;
      if (prev.nav > 0) index *= (s.nav - s.flow) / prev.nav;
    }
    points.push({ x: s.at, y: index });
  });
  if (points.length === 0) return html`<p class="muted">No snapshot yet.</p>`;
  const last = points[points.length - 1]!;
  const summary = `Return index over ${points.length} snapshots, from 1.000 on ${utc(points[0]!.x)} to ${last.y.toFixed(4)} on ${utc(last.x)} (${percent(last.y - 1, 2)}).`;
  return html`<figure>
      ${lineChart(points, {
        id: "return-index",
        title: "Return index (deposits and withdrawals removed)",
        summary,
        yLabel: (y) => y.toFixed(3),
        xLabel: (x) => new Date(x * 1000).toISOString().slice(5, 10),
      })}
      <figcaption>${summary}</figcaption>
    </figure>
    <details>
      <summary>Snapshots as a table</summary>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col" class="num">NAV (USDG)</th>
              <th scope="col" class="num">Flow</th>
              <th scope="col" class="num">Invested</th>
              <th scope="col" class="num">Index</th>
              <th scope="col">Seal</th>
            </tr>
          </thead>
          <tbody>
            ${history.snapshots.map(
              (s, i) =>
                html`<tr>
                  <td>${utc(s.at)}</td>
                  <td class="num">${fixed(s.nav, 2)}</td>
                  <td class="num">${fixed(s.flow, 2)}</td>
                  <td class="num">${percent(s.invested)}</td>
                  <td class="num">${points[i]!.y.toFixed(4)}</td>
                  <td class="mono" title="${s.seal}">${shortHex(s.seal)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>`;
}

function callsBlock(history: HistoryView, names: AssetNames): SafeHtml {
  if (history.calls.length === 0)
    return html`<p class="muted">No call of this agent has been recorded from CallLedger yet.</p>`;
  const recent = history.calls.slice(0, 25);
  return html`<p>
      Current streak <strong>${history.streak}</strong> · best streak
      <strong>${history.bestStreak}</strong> (consecutive hits; a void counts as nothing).
    </p>
    <div class="table-wrap">
      <table id="calls">
        <thead>
          <tr>
            <th scope="col">Revealed (UTC)</th>
            <th scope="col">Asset</th>
            <th scope="col" class="num">Window</th>
            <th scope="col">Direction</th>
            <th scope="col" class="num">Confidence</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          ${recent.map(
            (c) =>
              html`<tr>
                <td>${whenCell(c)}</td>
                <td title="${c.asset}">${c.direction === null ? "—" : assetText(c.asset, names)}</td>
                <td class="num">${c.direction === null ? "—" : hoursText(c.window)}</td>
                <td>${c.direction ?? "—"}</td>
                <td class="num">${fixed(c.confidenceBps / 100, 0)} %</td>
                <td class="${c.outcome}">${c.outcome}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** `/agents/:id?season=…`: one agent's score, terms, curve, calls, manifest, seal and anchor. */
export async function agentPage(
  app: FastifyInstance,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  origin: string,
): Promise<string> {
  const agentId = idParam(params.id, "agent");
  let season: string;
  if (query.season === undefined) {
    const { seasons } = await apiGet<SeasonsView>(app, "/api/v1/seasons");
    if (seasons.length === 0) throw new SitePageError(404, "NO_SEASON", "there is no season yet");
    season = seasons[0]!.id;
  } else season = idParam(query.season, "season");
  const history = await apiGet<HistoryView>(app, `/api/v1/agents/${agentId}/history?season_id=${season}`);
  let score: ScoreView | null = null;
  try {
    score = await apiGet<ScoreView>(app, `/api/v1/agents/${agentId}/score?season_id=${season}`);
  } catch (error) {
    if (!(error instanceof SitePageError && error.code === "NO_SCORE")) throw error;
  }
  const [names, creators, scores, links, evidence] = await Promise.all([
    assetNames(app),
    creatorNames(app),
    scoreHistory(app, agentId, season),
    decisionLinks(app, agentId, season),
    apiGet<EvidenceView>(app, `/api/v1/agents/${agentId}/evidence?season_id=${season}`),
  ]);
  // With the chain flags whenever the registry is known: without them the API would vouch for itself.
  const anchored = score?.anchor.status === "anchored" && score.anchor.registry ? score.anchor : undefined;
  const chainFlags = anchored ? ` --rpc RPC_URL --registry ${anchored.registry}` : "";
  const command = `npx augur verify --api ${origin} --agent ${agentId} --season ${season}${chainFlags}`;
  const scoreBlock =
    score === null
      ? html`<p>No score yet: the hourly cycle has not scored this agent.</p>`
      : html`<p class="state" id="overall">
            ${score.score === null
              ? reasonBar(score.reason)
              : html`${fixed(score.score)} ${valueBar(score.score, "overall")}`}
            ${score.rank === null ? "" : html` <span class="muted">rank ${score.rank}</span>`}
          </p>
          <p class="muted">
            ${termLink("score")} (0–100, higher is better), formula ${score.formula}, as of
            ${utc(score.asOf)}.
          </p>
          ${inputsLine(score)}
          <h2>Terms and what was measured</h2>
          ${termsTable(score)}
          <h2>Score over time</h2>
          ${scoreChart(scores)}
          <h2>${termLink("dna", "Strategy DNA")} and match</h2>
          ${score.manifest.measured === null
            ? html`<p class="muted">Not measured: the agent is not eligible yet.</p>`
            : dnaBlock(score)}`;
  const verification =
    score === null
      ? ""
      : html`<h2>Seal and anchor</h2>
          <p>
            Seal (sha256 of the manifest's RFC 8785 JSON):
            <span class="mono seal" id="seal">${score.seal}</span>
          </p>
          ${anchorBlock(score)}
          <details>
            <summary>Manifest (JSON)</summary>
            <pre><code id="manifest">${JSON.stringify(score.manifest, null, 2)}</code></pre>
          </details>
          <section class="box" aria-labelledby="verify-title">
            <h3 id="verify-title">Verify it yourself</h3>
            <p>Recompute the score from its manifest and check every seal against the anchored log:</p>
            ${anchored
              ? html`<p>
                  RPC_URL is your own node's JSON-RPC URL for chain ${anchored.chainId}: the anchors are
                  checked there, not taken from this site.
                </p>`
              : ""}
            <pre><code id="verify-command">${command}</code></pre>
          </section>`;
  const body = html`<h1>Agent ${agentId}</h1>
    <dl class="facts">
      <dt>season</dt>
      <dd><a href="/?season=${season}">${season}</a></dd>
      <dt>creator</dt>
      <dd id="creator">
        ${creators.has(history.creator.toLowerCase())
          ? html`${creatorText(history.creator, creators)} <code class="seal">${history.creator}</code>`
          : html`<span class="mono seal">${history.creator}</span>`}
      </dd>
      <dt>declared style</dt>
      <dd>${history.style}</dd>
      <dt>status</dt>
      <dd id="status">
        ${evidence.retiredAt === null
          ? "active"
          : html`<strong>retired</strong> since ${utc(evidence.retiredAt)}`}
      </dd>
      <dt>evidence</dt>
      <dd><a href="/agents/${agentId}/evidence?season=${season}">how this record is evidenced</a></dd>
    </dl>
    ${scoreBlock}
    <h2>Return index</h2>
    ${curve(history)}
    <h2>Recent calls</h2>
    ${callsBlock(history, names)}${decisionLinksBlock(links, names)}
    <h2>Calibration</h2>
    ${calibrationChart(history)} ${verification}`;
  return layout({ title: `Agent ${agentId}`, nav: "agent", body });
}
