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
          <th scope="col" class="num">Amount (base units)</th>
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
              <td class="num">${t.amount}</td>
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
    r.token ? `--token ${r.token}` : "",
    ...r.operators.map((o) => `--operator ${o}`),
    r.keeper ? `--keeper ${r.keeper}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const body = html`<h1>Final receipt</h1>
    <p class="lead">
      Everything spent and everything burned, blocks ${r.range.fromBlock}–${r.range.toBlock} of chain
      ${r.chainId}, reconstructed from public chain records only (saved ${savedOn}). A best-efforts
      reconstruction: anyone re-running the command below on the same chain gets the same seal.
    </p>
    <dl class="facts" id="receipt-totals">
      <dt>Seal</dt>
      <dd><code id="receipt-seal">${seal}</code></dd>
      <dt>Token</dt>
      <dd><code>${r.token ?? "none given"}</code></dd>
      <dt>Spent from operator wallets</dt>
      <dd id="receipt-spent">${r.totals.spent} base units in ${r.spends.length} transfers</dd>
      <dt>Burned</dt>
      <dd id="receipt-burned">
        ${r.totals.burned} base units (${r.totals.burnedByOperators} by operator wallets)
      </dd>
      <dt>Keeper gas</dt>
      <dd id="receipt-gas">${r.totals.keeperFeeWei} wei in ${r.totals.keeperTransactions} transactions</dd>
    </dl>
    <pre><code>${command}</code></pre>
    <h2>Spends by operator wallet</h2>
    <ul>
      ${Object.entries(r.totals.spentByOperator).map(
        ([op, amount]) => html`<li><code>${op}</code>: ${amount}</li>`,
      )}
    </ul>
    <h2>Transfers out of operator wallets</h2>
    ${transfersTable("receipt-spends", r.spends)}
    <h2>Burns</h2>
    ${transfersTable("receipt-burns", r.burns)}
    <h2>Keeper transactions</h2>
    <p class="muted">${r.keeperGasMethod}.</p>
    <p>
      ${r.keeperTransactions.length} transactions, ${r.totals.keeperFeeWei}
      wei${r.keeperTransactions.length
        ? html`: ${r.keeperTransactions.map((t) => html`<code>${shortHex(t.tx)}</code> `)}`
        : ""}
    </p>
    <p><a href="/api/v1/receipt">The sealed document (JSON)</a> · <a href="/mode">Mode and notices</a></p>`;
  return layout({ title: "Final receipt", nav: "receipt", body });
}
