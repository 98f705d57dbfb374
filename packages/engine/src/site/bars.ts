import { fixed, reasonText } from "./format";
import { html, trustedHtml, type SafeHtml } from "./html";

const clampPercent = (v: number) => Math.max(0, Math.min(100, v));

/** A 0–100 value as a bar; the number is in the accessible name and beside it when not small. */
export function valueBar(value: number | null, label: string, small = false): SafeHtml {
  if (value === null) {
    return html`<span
      class="bar${small ? " small" : ""}"
      role="img"
      aria-label="${label}: not measured"
      title="${label}: not measured"
    ></span>`;
  }
  const width = clampPercent(value).toFixed(1);
  return html`<span
    class="bar${small ? " small" : ""}"
    role="img"
    aria-label="${label}: ${fixed(value)} of 100"
    title="${label}: ${fixed(value)}"
    ><span style="width:${trustedHtml(width)}%"></span
  ></span>`;
}

/** The bar shown in place of a number when there is none, with the reason written in it. */
export function reasonBar(reason: string | null): SafeHtml {
  return html`<span class="bar reason" data-reason="${reason ?? ""}">${reasonText(reason)}</span>`;
}
