import { fixed, reasonText } from "./format";
import { html, trustedHtml, type SafeHtml } from "./html";

const clampPercent = (v: number) => Math.max(0, Math.min(100, v));

/**
 * A 0–100 value as a bar, the number in its accessible name; a small bar (a table of terms)
 * prints its number beside it. A value that was not measured is a hatched box saying so, never
 * an empty bar (which is what 0 looks like).
 */
export function valueBar(value: number | null, label: string, small = false): SafeHtml {
  const size = small ? " small" : "";
  if (value === null) {
    return html`<span
      class="bar none${size}"
      role="img"
      data-measured="false"
      aria-label="${label}: not measured"
      title="${label}: not measured"
      >${small ? "n/m" : "not measured"}</span
    >`;
  }
  const width = clampPercent(value).toFixed(1);
  const bar = html`<span
    class="bar${size}"
    role="img"
    data-measured="true"
    aria-label="${label}: ${fixed(value)} of 100"
    title="${label}: ${fixed(value)}"
    ><span style="width:${trustedHtml(width)}%"></span
  ></span>`;
  return small
    ? html`<span class="meter">${bar}<span class="meter-value">${fixed(value, 0)}</span></span>`
    : bar;
}

/** The bar shown in place of a number when there is none, with the reason written in it. */
export function reasonBar(reason: string | null): SafeHtml {
  return html`<span class="bar reason" data-reason="${reason ?? ""}">${reasonText(reason)}</span>`;
}
