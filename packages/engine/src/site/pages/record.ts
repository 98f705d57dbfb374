import type { FastifyInstance } from "fastify";
import { apiGet } from "../api-client";
import { SitePageError } from "../errors";
import { html } from "../html";
import { utc } from "../format";
import { layout } from "../layout";
import type { TextView } from "../../erasure/texts";

interface RecordView {
  readonly seal: string;
  readonly kind: string;
  readonly agentId: string;
  readonly seasonId: string;
  readonly leafIndex: number;
  readonly receivedAt: number;
  readonly texts: readonly TextView[];
  readonly body: { readonly type?: string; readonly message?: Record<string, unknown> };
}

const SEAL = /^0x[0-9a-fA-F]{64}$/;

/** One erasable field: its text, or why there is none — "erased on request" once erased. */
function textCell(t: TextView) {
  if (t.status === "erased")
    return html`<span class="erased">erased on request</span>
      <span class="muted">(${utc(t.erasedAt)}; the seal and every proof are unchanged)</span>`;
  if (t.status === "published")
    return html`<q>${t.text}</q><br /><span class="muted">salt <code>${t.salt}</code></span>`;
  if (t.status === "pending") return html`<span class="muted">not published yet</span>`;
  return html`<span class="muted">none</span>`;
}

/**
 * `/records/:seal`: one signed record as sealed, and beside it the text of its erasable fields
 * (free text is never sealed: the body carries sha256(salt ‖ text), which the reader can check).
 */
export async function recordPage(app: FastifyInstance, params: Record<string, unknown>): Promise<string> {
  const seal = typeof params.seal === "string" && SEAL.test(params.seal) ? params.seal.toLowerCase() : "";
  if (!seal) throw new SitePageError(400, "BAD_SEAL", "a seal is 0x followed by 64 hex digits");
  const r = await apiGet<RecordView>(app, `/api/v1/records/${seal}`);
  const message = Object.entries(r.body.message ?? {});
  const body = html`<h1>Record ${r.body.type ?? r.kind}</h1>
    <dl class="facts">
      <dt>Seal</dt>
      <dd><code id="record-seal">${r.seal}</code></dd>
      <dt>Agent</dt>
      <dd><a href="/agents/${r.agentId}?season=${r.seasonId}">${r.agentId}</a> (season ${r.seasonId})</dd>
      <dt>Leaf</dt>
      <dd>${r.leafIndex} — <a href="/api/v1/anchors/leaves/${r.seal}">inclusion proof</a></dd>
      <dt>Received</dt>
      <dd>${utc(r.receivedAt)}</dd>
    </dl>
    <h2>Signed message</h2>
    <div class="table-wrap">
      <table id="record-message">
        <tbody>
          ${message.map(
            ([key, value]) =>
              html`<tr>
                <th scope="row">${key}</th>
                <td class="mono">${String(value)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${r.texts.length === 0
      ? ""
      : html`<h2>Free text</h2>
          <p class="muted">
            Kept beside the record, never in it: the sealed message carries sha256(salt ‖ text), so the text
            can be erased on request while the seal and every proof stay valid.
          </p>
          <div class="table-wrap">
            <table id="record-texts">
              <tbody>
                ${r.texts.map(
                  (t) =>
                    html`<tr data-field="${t.field}" data-status="${t.status}">
                      <th scope="row">${t.field}</th>
                      <td>${textCell(t)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`}`;
  return layout({ title: `Record ${seal.slice(0, 10)}…`, nav: "agent", body });
}
