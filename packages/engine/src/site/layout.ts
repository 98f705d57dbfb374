import { html, trustedHtml, type SafeHtml } from "./html";
import { SORT_SCRIPT } from "./sort-script";
import { SITE_CSS } from "./style";

export const NAV_ITEMS = [
  { href: "/", label: "Leaderboard", key: "leaderboard" },
  { href: "/consensus", label: "Consensus", key: "consensus" },
  { href: "/referee", label: "Referee", key: "referee" },
  { href: "/risk", label: "Risk", key: "risk" },
  { href: "/stewardship", label: "Stewardship", key: "stewardship" },
  { href: "/mode", label: "Mode", key: "mode" },
  { href: "/receipt", label: "Receipt", key: "receipt" },
  { href: "/methodology", label: "Methodology", key: "methodology" },
] as const;

/**
 * Where the mode banner goes in every page: pages are rendered (and some cached) without
 * knowing the mode, and the site fills this slot on each request (`withModeBanner`).
 */
export const MODE_BANNER_SLOT = "<!--mode-banner-->";

/** The page with the banner in its slot (an empty banner just removes the slot). */
export function withModeBanner(page: string, banner: SafeHtml): string {
  return page.replace(MODE_BANNER_SLOT, () => banner.text);
}

export type NavKey = (typeof NAV_ITEMS)[number]["key"] | "agent" | "error";

export interface PageOptions {
  readonly title: string;
  readonly nav: NavKey;
  readonly body: SafeHtml;
  /** Pages with sortable tables carry the sort script. */
  readonly script?: boolean;
}

/** The document every page shares: inline CSS, navigation, one optional inline script. */
export function layout(page: PageOptions): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title} · Augur ledger</title>
        <link rel="icon" href="data:," />
        <style>
          ${trustedHtml(SITE_CSS)}
        </style>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site">
          <a class="brand" href="/">Augur ledger</a>
          <nav class="site" aria-label="Main">
            <ul>
              ${NAV_ITEMS.map(
                (item) =>
                  html`<li>
                    <a href="${item.href}" ${item.key === page.nav ? trustedHtml(' aria-current="page"') : ""}
                      >${item.label}</a
                    >
                  </li>`,
              )}
            </ul>
          </nav>
        </header>
        ${trustedHtml(MODE_BANNER_SLOT)}
        <main id="main" tabindex="-1">${page.body}</main>
        <footer class="site">
          Every number here is served by <a href="/api/v1/openapi.json">/api/v1</a> and can be recomputed from
          sealed, anchored records.
        </footer>
        ${page.script
          ? html`<script>
              ${trustedHtml(SORT_SCRIPT)};
            </script>`
          : ""}
      </body>
    </html>`.text;
}
