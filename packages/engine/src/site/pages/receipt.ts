import type { FastifyInstance } from "fastify";
import { shortHex } from "../format";
import { html } from "../html";
import { layout } from "../layout";
import type { ReceiptView } from "../../api/routes/modes";
import type { ReceiptDocument } from "../../modes/receipt/document";

function transfersTable(id: string, rows: ReceiptDocument["spends"]) {
  if (rows.length === 0) return html`<p class="muted">None in the range.</p>`;
  return html`<div class="table-wrap">
    <table id="${id}">
      <thead>
        <tr>
          <th scope="col" class="num">Block</th>
          <th scope="col">Transaction</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Asset</th>
          <th scope="col" class="num">Amount (base units)</th>
          <th scope="col" class="num">USDG (base units)</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (t) =>
            html`<tr>
              <td class="num">${t.block}</td>
              <td><code>${shortHex(t.tx)}</code></td>
              <td><code>${t.from}</code></td>
              <td><code>${t.to}</code></td>
              <td><code>${t.asset}</code></td>
              <td class="num">${t.amount}</td>
              <td class="num">${t.usdg ?? "unpriced"}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** `/receipt`: the saved final receipt, readable, with the command that reproduces its seal. */
export async function receiptPage(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: "GET", url: "/api/v1/receipt" });
  if (res.statusCode === 404) {
    return layout({
      title: "Final receipt",
      nav: "receipt",
      body: html`<h1>Final receipt</h1>
        <p id="receipt-none">
          No final receipt has been published. The wind-down is announced with one: everything spent and
          everything burned, reconstructed from public chain records alone by <code>augur receipt</code>.
        </p>`,
    });
  }
  const { seal, savedOn, receipt: r } = res.json() as ReceiptView;
  const command = [
    "npx augur receipt",
    `--from ${r.range.fromBlock} --to ${r.range.toBlock}`,
    "--rpc <url>",
    ...r.operators.map((o) => `--operator ${o}`),
    r.token ? `--token ${r.token}` : "",
    r.keeper ? `--keeper ${r.keeper}` : "",
    r.settler ? `--settler ${r.settler}` : "",
    r.pricing ? `--oracle ${r.pricing.oracle}` : "",
    r.pricing?.eth ? `--eth ${r.pricing.eth}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const t = r.totals;
  const body = html`<h1>Final receipt</h1>
    <p class="lead">
      Everything spent and everything burned, blocks ${r.range.fromBlock}–${r.range.toBlock} of chain
      ${r.chainId}, reconstructed from public chain records only (saved ${savedOn}). A best-efforts
      reconstruction: anyone re-running the command below on the same chain gets the same seal.
    </p>
    <dl class="facts" id="receipt-totals">
      <dt>Seal</dt>
      <dd><code id="receipt-seal">${seal}</code></dd>
      <dt>Operator wallets</dt>
      <dd>${r.operators.length}</dd>
      <dt>In USDG at the time</dt>
      <dd id="receipt-usdg">
        ${r.pricing
          ? html`spent ${t.usdg.spent}, burned ${t.usdg.burned}, gas ${t.usdg.gas}: ${t.usdg.all} base units
            of USDG (${r.pricing.usdgDecimals}
            decimals)${t.unpriced > 0 ? `; ${t.unpriced} lines unpriced` : ""}`
          : "not valued (no oracle given)"}
      </dd>
    </dl>
    <pre><code>${command}</code></pre>
    <h2>Totals per asset</h2>
    <div class="table-wrap">
      <table id="receipt-assets">
        <thead>
          <tr>
            <th scope="col">Asset</th>
            <th scope="col" class="num">Spent</th>
            <th scope="col" class="num">Burned (by operators)</th>
            <th scope="col" class="num">Gas</th>
            <th scope="col" class="num">USDG spent / burned / gas</th>
          </tr>
        </thead>
        <tbody>
          ${r.assets.map(
            (a) =>
              html`<tr>
                <td><code>${a.asset}</code> (${a.decimals} decimals)</td>
                <td class="num">${a.spent}</td>
                <td class="num">${a.burned} (${a.burnedByOperators})</td>
                <td class="num">${a.gas}</td>
                <td class="num">
                  ${r.pricing ? `${a.usdg.spent} / ${a.usdg.burned} / ${a.usdg.gas}` : "not valued"}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <h2>Spent from operator wallets</h2>
    ${transfersTable("receipt-spends", r.spends)}
    <h2>Burns</h2>
    ${transfersTable("receipt-burns", r.burns)}
    <h2>Gas</h2>
    <p class="muted">${r.methods.gas}.</p>
    <p id="receipt-gas">
      ${r.gas.length}
      transactions${r.gas.length
        ? html`:
          ${r.gas.map((g) => html`<code>${shortHex(g.tx)}</code> (${g.roles.join(", ")}, ${g.fee} wei) `)}`
        : ""}
    </p>
    <p><a href="/api/v1/receipt">The sealed document (JSON)</a> · <a href="/mode">Mode and notices</a></p>`;
  return layout({ title: "Final receipt", nav: "receipt", body });
}
