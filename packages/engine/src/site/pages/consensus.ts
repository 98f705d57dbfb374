import type { FastifyInstance } from "fastify";
import { apiGet } from "../api-client";
import { assetNames, assetText } from "../assets";
import { fixed, hoursText, shortHex, spanText, utc } from "../format";
import { termLink } from "../glossary";
import { html } from "../html";
import { layout } from "../layout";
import type { MarketsView, RoundsView } from "../../api/routes/consensus";

/** Weights are 18-decimal integers (1e18 = one fresh agent's vote). */
const weight = (w: string) => fixed(Number(BigInt(w) / 10n ** 12n) / 1e6, 3);

/** `/consensus`: the newest round of every market, then each market's consensus log. */
export async function consensusPage(app: FastifyInstance): Promise<string> {
  const { markets } = await apiGet<MarketsView>(app, "/api/v1/consensus");
  const logs = await Promise.all(
    markets.map((m) => apiGet<RoundsView>(app, `/api/v1/consensus/${m.asset}/${m.window}?limit=50`)),
  );
  const current = logs.filter((l) => l.rounds.length > 0);
  const names = await assetNames(app);
  const body = html`<h1>Consensus</h1>
    <p class="lead">
      Calls closing in the same window-length slot vote together (a ${termLink("consensus")}): each reveal
      adds 1 + the agent's track-record score to its side. A round reaches consensus with at least 3 voters
      and a lead of at least 66.67 %; a flip of the leading direction inside a round is logged again.
    </p>
    <p><a href="/methodology#calls">How calls, scores and consensus work</a></p>
    ${markets.length === 0
      ? html`<p id="no-consensus">
          No consensus event has been indexed from CallLedger yet. Rounds appear here once the chain indexer
          records them.
        </p>`
      : html`<h2>Latest round per market</h2>
          <p class="muted">
            The newest Consensus event of each asset and window. A round still below quorum or threshold has
            emitted nothing yet, so it is not listed.
          </p>
          <div class="table-wrap">
            <table id="latest-rounds">
              <thead>
                <tr>
                  <th scope="col">Asset</th>
                  <th scope="col" class="num">Window</th>
                  <th scope="col">Round: calls closing</th>
                  <th scope="col">Direction</th>
                  <th scope="col" class="num">Strength</th>
                  <th scope="col" class="num">Voters</th>
                  <th scope="col" class="num">Up weight</th>
                  <th scope="col" class="num">Down weight</th>
                </tr>
              </thead>
              <tbody>
                ${current.map((l) => {
                  const r = l.rounds[0]!;
                  return html`<tr>
                    <td>${assetText(l.asset, names)}</td>
                    <td class="num">${hoursText(l.window)}</td>
                    <td title="bucket ${r.bucket}">${spanText(r.closesFrom, r.closesUntil)}</td>
                    <td>${r.direction}</td>
                    <td class="num">${fixed(r.strengthBps / 100, 2)} %</td>
                    <td class="num">${r.voters}</td>
                    <td class="num">${weight(r.upWeight)}</td>
                    <td class="num">${weight(r.downWeight)}</td>
                  </tr>`;
                })}
              </tbody>
            </table>
          </div>
          <h2>Consensus log</h2>
          ${logs.map(
            (l) =>
              html`<h3>${assetText(l.asset, names)}, ${hoursText(l.window)} window</h3>
                <div class="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Time (UTC)</th>
                        <th scope="col">Calls closing</th>
                        <th scope="col">Direction</th>
                        <th scope="col" class="num">Strength</th>
                        <th scope="col" class="num">Voters</th>
                        <th scope="col" class="num">Up</th>
                        <th scope="col" class="num">Down</th>
                        <th scope="col" class="num">Block</th>
                        <th scope="col">Transaction</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${l.rounds.map(
                        (r) =>
                          html`<tr>
                            <td>${utc(r.at)}</td>
                            <td title="bucket ${r.bucket}">${spanText(r.closesFrom, r.closesUntil)}</td>
                            <td>${r.direction}</td>
                            <td class="num">${fixed(r.strengthBps / 100, 2)} %</td>
                            <td class="num">${r.voters}</td>
                            <td class="num">${weight(r.upWeight)}</td>
                            <td class="num">${weight(r.downWeight)}</td>
                            <td class="num">${r.blockNumber}</td>
                            <td class="mono" title="${r.txHash}">${shortHex(r.txHash)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>`,
          )}`}`;
  return layout({ title: "Consensus", nav: "consensus", body });
}
