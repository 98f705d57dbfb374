import type { FastifyInstance } from "fastify";
import { ZERO_HASH } from "@augur/records";
import { apiGet } from "./api-client";
import { assetText, type AssetNames } from "./assets";
import { shortHex, utc } from "./format";
import { html, type SafeHtml } from "./html";

/** A buy or sell decision that names the transaction of its trade (`DecisionV2`, `DecisionV3`). */
export interface DecisionLink {
  readonly at: number;
  readonly asset: string;
  readonly action: string;
  readonly txHash: string;
  readonly seal: string;
}

interface InputsView {
  readonly inputs: ReadonlyArray<{ readonly seal: string; readonly body: string }>;
}

/** The agent's decisions that name their trade, newest first, read from the inputs route the API serves. */
export async function decisionLinks(
  app: FastifyInstance,
  agentId: string,
  season: string,
): Promise<DecisionLink[]> {
  const { inputs } = await apiGet<InputsView>(
    app,
    `/api/v1/agents/${agentId}/inputs?season_id=${season}&kind=decision`,
  );
  const links: DecisionLink[] = [];
  for (const { seal, body } of inputs) {
    const m = (JSON.parse(body) as { message?: Record<string, unknown> }).message ?? {};
    if (typeof m.txHash !== "string" || m.txHash === ZERO_HASH) continue; // DecisionV3 naming no trade
    const [at, asset, action] = [Number(m.decidedAt), String(m.asset), String(m.action)];
    links.push({ at, asset, action, txHash: m.txHash, seal });
  }
  return links.reverse();
}

/** The 25 newest decisions that name their trade; nothing when none does. */
export function decisionLinksBlock(links: readonly DecisionLink[], names: AssetNames): SafeHtml | "" {
  if (links.length === 0) return "";
  return html`<h2>Decisions naming their trade</h2>
    <p class="muted">
      The transaction each decision says it led to. The agent declares the link; the trade itself is the one
      the engine measured from the wallet.
    </p>
    <div class="table-wrap">
      <table id="decision-links">
        <thead>
          <tr>
            <th scope="col">Decided (UTC)</th>
            <th scope="col">Asset</th>
            <th scope="col">Action</th>
            <th scope="col">Trade transaction</th>
            <th scope="col">Seal</th>
          </tr>
        </thead>
        <tbody>
          ${links.slice(0, 25).map(
            (d) =>
              html`<tr>
                <td>${utc(d.at)}</td>
                <td title="${d.asset}">${assetText(d.asset, names)}</td>
                <td>${d.action}</td>
                <td class="mono" title="${d.txHash}">${shortHex(d.txHash)}</td>
                <td class="mono" title="${d.seal}"><a href="/records/${d.seal}">${shortHex(d.seal)}</a></td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}
