import type { FastifyInstance } from "fastify";
import { apiGet } from "./api-client";
import { html, type SafeHtml } from "./html";
import { describeCause } from "../modes/describe";
import type { ModeView } from "../api/routes/modes";

/** One line per notice not yet in effect: the public notice period is the point. */
export function noticeLine(n: ModeView["notices"][number]): SafeHtml {
  return n.notice === "mode"
    ? html`Notice given ${n.noticed}: the system
      ${n.to === "active" ? "leaves maintenance" : `enters ${n.to}`} on ${n.effective} (${n.reason}).`
    : html`Methodology notice of ${n.announced}: ${n.formula} applies from ${n.effective}; scores sealed
      before keep their formula.`;
}

/** The banner of every page: the mode since its first day, with its cause, and pending notices. */
export function modeBanner(view: ModeView): SafeHtml {
  const pending = view.notices.filter((n) => n.pending).map((n) => html`<p>${noticeLine(n)}</p>`);
  const why = describeCause(view.cause);
  let headline: SafeHtml | "" = "";
  if (view.mode === "maintenance") {
    headline = html`<p>
      <strong>Maintenance mode since ${view.since}</strong>: ${why}. The site and the ledger keep running;
      house agents act less often and no new spend goes in.
    </p>`;
  } else if (view.mode === "wind-down") {
    headline = html`<p>
      <strong>The system is winding down since ${view.since}</strong>: ${why}. No new records are accepted;
      what the engine holds is being anchored a last time, then this site becomes a read-only archive.
    </p>`;
  } else if (view.mode === "archived") {
    headline = html`<p>
      <strong>Read-only archive since ${view.since}</strong>: ${why}. Every page and every proof stays served;
      nothing new is accepted. <a href="/receipt">The final receipt</a>
    </p>`;
    const final = view.finalNotice;
    if (final) {
      headline = html`${headline}
        <p id="final-notice">
          Final notice of ${final.declared}: “${final.words}” — seal <code>${final.seal}</code>, posted on
          chain in <code>${final.posted.txHash}</code>; final receipt <code>${final.receipt}</code>.
        </p>`;
    }
  }
  if (view.lpLockAlarm) {
    // Seed 002's promise about the LP timelock, broken in public view: on every page, not only /stewardship.
    headline = html`${headline}
      <p id="lp-lock-banner" role="alert">
        <strong>LP timelock alarm since ${view.lpLockAlarm.since}</strong>: ${view.lpLockAlarm.reason}.
        <a href="/stewardship#lp-lock">The lock as read</a>
      </p>`;
  }
  if (headline === "" && pending.length === 0) return html``;
  return html`<div class="mode-banner ${view.mode}" id="mode-banner" role="status">
    ${headline}${pending}
    <p><a href="/mode">Mode and notices</a></p>
  </div>`;
}

/** The banner for the current request, read through the public API like every page. */
export async function currentBanner(app: FastifyInstance): Promise<SafeHtml> {
  return modeBanner(await apiGet<ModeView>(app, "/api/v1/mode"));
}
