import { html, trustedHtml, type SafeHtml } from "../html";

export type SortState = "ascending" | "descending" | "none";

/**
 * A sortable column header: a real link (the server sorts without JavaScript) that the site's
 * script turns into an in-place sort; `aria-sort` says the current order.
 */
export function sortableHeader(options: {
  label: string;
  key: string;
  href: string;
  state: SortState;
  numeric?: boolean;
  /** Numeric columns are right-aligned unless they hold more than a number (bars). */
  rightAligned?: boolean;
  firstOrder?: "ascending" | "descending";
}): SafeHtml {
  const classAttr = (options.rightAligned ?? options.numeric) ? trustedHtml(' class="num"') : "";
  return html`<th
    scope="col"
    data-key="${options.key}"
    aria-sort="${options.state}"
    ${classAttr}${options.numeric ? trustedHtml(' data-type="number"') : ""}${options.firstOrder ===
    "descending"
      ? trustedHtml(' data-first="descending"')
      : ""}
  >
    <a class="sort" href="${options.href}">${options.label}</a>
  </th>`;
}
