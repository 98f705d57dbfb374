import type { FastifyInstance } from "fastify";
import { TERM_NAMES, type TermName } from "@augur/scorer";
import { apiGet } from "../api-client";
import { reasonBar, valueBar } from "../bars";
import { SitePageError } from "../errors";
import { creatorNames, creatorText, type CreatorNames } from "../creators";
import { fixed, sortValue, utc } from "../format";
import { html, type SafeHtml } from "../html";
import { termLink } from "../glossary";
import { layout } from "../layout";
import { choiceParam, idParam, pageParam } from "../params";
import type { SeasonsView } from "../../api/routes/seasons";
import type { StandingRow, StandingsView } from "../../api/routes/standings";
import { sortableHeader, type SortState } from "./sortable";

export const PAGE_SIZE = 100;
/** The terms' short names in the table header, in TERM_NAMES order. */
const TERM_SHORT: Record<TermName, string> = {
  performance: "perf",
  risk: "risk",
  consistency: "cons",
  calibration: "cal",
  longevity: "long",
  creator: "creator",
};
const SORTS = ["rank", "agent", "creator", "style"] as const;
type Sort = (typeof SORTS)[number];

function boardUrl(season: string, page: number, sort: Sort, order: "asc" | "desc"): string {
  const q = new URLSearchParams({ season });
  if (page > 1) q.set("page", String(page));
  if (sort !== "rank") q.set("sort", sort);
  if (order !== "asc") q.set("order", order);
  return `/?${q.toString()}`;
}

function row(r: StandingRow, season: string, creators: CreatorNames): SafeHtml {
  const terms = TERM_NAMES.map((t) => valueBar(r.terms[t] ?? null, t, true));
  return html`<tr>
    <td class="num" data-value="${sortValue(r.rank)}">${r.rank ?? "—"}</td>
    <td data-value="${r.agentId}"><a href="/agents/${r.agentId}?season=${season}">${r.agentId}</a></td>
    <td data-value="${sortValue(r.score)}">
      ${r.score === null
        ? reasonBar(r.reason)
        : html`<strong>${fixed(r.score)}</strong> ${valueBar(r.score, "overall")}`}
    </td>
    <td><span class="terms">${terms}</span></td>
    <td class="num" data-value="${sortValue(r.multiplier)}">
      ${r.multiplier === null ? "—" : fixed(r.multiplier, 3)}
    </td>
    <td data-value="${r.creator}">${creatorText(r.creator, creators)}</td>
    <td data-value="${r.style}">${r.style}</td>
  </tr>`;
}

/** `/`: the season leaderboard, 100 agents a page, server-sorted by any text column or rank. */
export async function leaderboardPage(app: FastifyInstance, query: Record<string, unknown>): Promise<string> {
  const { seasons } = await apiGet<SeasonsView>(app, "/api/v1/seasons");
  if (seasons.length === 0) {
    return layout({
      title: "Leaderboard",
      nav: "leaderboard",
      body: html`<h1>Leaderboard</h1>
        <p>No season has been created yet, so there is nothing to rank.</p>`,
    });
  }
  const season = query.season === undefined ? seasons[0]!.id : idParam(query.season, "season");
  const page = pageParam(query.page);
  const sort = choiceParam(query.sort, SORTS, "rank", "sort");
  const order = choiceParam(query.order, ["asc", "desc"] as const, "asc", "order");
  const offset = (page - 1) * PAGE_SIZE;
  const [board, creators] = await Promise.all([
    apiGet<StandingsView>(
      app,
      `/api/v1/seasons/${season}/standings?limit=${PAGE_SIZE}&offset=${offset}&sort=${sort}&order=${order}`,
    ),
    creatorNames(app),
  ]);
  const pages = Math.max(1, Math.ceil(board.total / PAGE_SIZE));
  if (page > pages)
    throw new SitePageError(
      404,
      "NO_SUCH_PAGE",
      `page ${page} does not exist: season ${season} has ${pages} page${pages === 1 ? "" : "s"}`,
    );

  const header = (label: string, key: Sort, numeric = false) => {
    const state: SortState = sort === key ? (order === "asc" ? "ascending" : "descending") : "none";
    const next = sort === key && order === "asc" ? "desc" : "asc";
    return sortableHeader({ label, key, href: boardUrl(season, 1, key, next), state, numeric });
  };
  const scoreState: SortState = sort === "rank" ? (order === "asc" ? "descending" : "ascending") : "none";
  const selector = html`<form class="inline" method="get" action="/">
    <label for="season">Season</label>
    <select id="season" name="season">
      ${seasons.map(
        (s) =>
          html`<option value="${s.id}" ${s.id === season ? html` selected` : ""}>
            ${s.name} (${s.id})
          </option>`,
      )}
    </select>
    <button type="submit">Show</button>
  </form>`;
  const pager = html`<nav class="pager" aria-label="Pages">
    ${page > 1 ? html`<a href="${boardUrl(season, page - 1, sort, order)}" rel="prev">← Previous</a>` : ""}
    <span>Page ${page} of ${pages} · ${board.total} agents</span>
    ${page < pages ? html`<a href="${boardUrl(season, page + 1, sort, order)}" rel="next">Next →</a>` : ""}
  </nav>`;
  const body = html`<h1>Season leaderboard</h1>
    <p class="lead">
      Scored as of ${utc(board.asOf)} by augur-score/v1. Ties share a rank; an agent that is not ranked yet
      shows why instead of a number.
    </p>
    <p class="legend" id="score-legend">
      ${termLink("score")}: 0–100, higher is better, from six terms (each 0–100):
      ${TERM_NAMES.map((t, i) => html`${i > 0 ? " · " : ""}${termLink(t)}`)}; ${termLink("not_measured")} is
      left out, not 0; times the ${termLink("multiplier")}.
    </p>
    ${selector}
    ${board.rows.length === 0
      ? html`<p>No agent of season ${season} has been scored yet.</p>`
      : html`${pager}
          <div class="table-wrap">
            <table data-sortable id="leaderboard">
              <caption class="skip">
                Season ${season}, page ${page}
              </caption>
              <thead>
                <tr>
                  ${header("Rank", "rank", true)} ${header("Agent", "agent")}
                  ${sortableHeader({
                    label: "Score",
                    key: "score",
                    href: boardUrl(season, 1, "rank", sort === "rank" && order === "asc" ? "desc" : "asc"),
                    state: scoreState,
                    numeric: true,
                    rightAligned: false,
                    firstOrder: "descending",
                  })}
                  <th scope="col">
                    Terms
                    <span class="muted"
                      >(${TERM_NAMES.map(
                        (t, i) => html`${i > 0 ? " · " : ""}${termLink(t, TERM_SHORT[t])}`,
                      )})</span
                    >
                  </th>
                  <th scope="col" class="num">${termLink("multiplier", "Multiplier")}</th>
                  ${header("Creator", "creator")} ${header("Style", "style")}
                </tr>
              </thead>
              <tbody>
                ${board.rows.map((r) => row(r, season, creators))}
              </tbody>
            </table>
          </div>
          ${pager}`}`;
  return layout({ title: `Leaderboard ${season}`, nav: "leaderboard", body, script: true });
}
