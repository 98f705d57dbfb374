import type { RefereeDetailJson } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import type { RefereeCohortJson } from "../../referee/board";
import { apiGet } from "../api-client";
import { histogramChart } from "../charts";
import { SitePageError } from "../errors";
import { fixed, utc } from "../format";
import { html } from "../html";
import { termLink } from "../glossary";
import { layout } from "../layout";
import { idParam } from "../params";
import type { BoardView } from "../../api/routes/referee";
import type { SeasonsView } from "../../api/routes/seasons";

type AgentRow = RefereeDetailJson & { pending_calls: number } & RefereeCohortJson;

/** The season's board, or undefined while the cycle has not sealed one (an unknown season is a 404). */
async function boardOf(app: FastifyInstance, season: string): Promise<BoardView | undefined> {
  try {
    return await apiGet<BoardView>(app, `/api/v1/referee/${season}/board`);
  } catch (error) {
    if (error instanceof SitePageError && error.code === "NO_REFEREE_BOARD") return undefined;
    throw error;
  }
}

/**
 * `/referee`: the monkey-percentile leaderboard (ranked, then proving) and each agent's monkeys,
 * all from the latest sealed board (one request: each agent's counts and histogram are stored
 * with it, so the page never asks for 2,048 monkeys per agent).
 */
export async function refereePage(app: FastifyInstance, query: Record<string, unknown>): Promise<string> {
  const { seasons } = await apiGet<SeasonsView>(app, "/api/v1/seasons");
  if (seasons.length === 0)
    return layout({
      title: "Referee",
      nav: "referee",
      body: html`<h1>Referee</h1>
        <p>No season yet.</p>`,
    });
  const season = query.season === undefined ? seasons[0]!.id : idParam(query.season, "season");
  const board = await boardOf(app, season);
  if (!board)
    return layout({
      title: "Referee",
      nav: "referee",
      body: html`<h1>Referee</h1>
        <p>
          Season ${season} has no referee board yet: the hourly cycle seals one once closes and calls are
          anchored.
        </p>`,
    });
  const ref = board.body.leaderboard;
  const cohorts = new Map(board.body.cohorts.map((c) => [c.agent, c]));
  const details: AgentRow[] = ref.agents.map((a) => ({ ...a, ...cohorts.get(a.agent)! }));
  const table = (status: "ranked" | "proving") => {
    const rows = details.filter((a) => a.status === status);
    if (rows.length === 0) return html`<p class="muted">No ${status} agent.</p>`;
    return html`<div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col" class="num">${termLink("percentile", "Percentile")}</th>
            <th scope="col" class="num">Scored calls</th>
            <th scope="col" class="num">Pending</th>
            <th scope="col" class="num">${termLink("sum_r")}</th>
            <th scope="col" class="num">Monkeys below / equal</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (a) =>
              html`<tr>
                <td><a href="#monkeys-${a.agent}">${a.agent}</a></td>
                <td class="num">${fixed(a.percentile, 2)}</td>
                <td class="num">${a.scored_calls}</td>
                <td class="num">${a.pending_calls}</td>
                <td class="num">${fixed(a.sum_r, 4)}</td>
                <td class="num">${a.monkeys_below} / ${a.monkeys_equal}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  };
  const body = html`<h1>Referee: would a coin have done as well?</h1>
    <p class="lead">
      Each agent is compared with ${ref.monkeys} monkeys that make its exact calls but pick directions with a
      fair coin (${ref.method}). The number is the agent's percentile inside that crowd; ties count half.
      Under 10 scored calls an agent is still proving. Inputs: the hourly closes the engine reads from the
      PriceOracle each hour and the season's CallLedger calls, each sealed in the log (<a
        href="/api/v1/referee/${season}/input"
        >input file</a
      >, seal <code>${ref.input_seal}</code>; <a href="/api/v1/referee/${season}">leaderboard.json</a>).
    </p>
    <p id="referee-board">
      Computed by the hourly cycle as of ${utc(board.asOf)} from the log's first ${board.body.inputs.treeSize}
      leaves (anchor #${board.body.inputs.anchorIndex}). Board seal
      <code>${board.seal}</code> (<a href="/api/v1/referee/${season}/board">sealed board</a>), leaf
      ${board.leafIndex}:
      ${board.anchor.status === "anchored"
        ? html`<span class="status-anchored">anchored</span> (anchor #${board.anchor.anchorIndex})`
        : html`<span class="status-pending">pending</span> the next anchor`}.
    </p>
    <p class="legend" id="referee-legend">
      ${termLink("percentile", "Percentile")}: 0–100, 50 is what a coin gets; ${termLink("sum_r")} is the sum
      of the agent's call outcomes, the number the monkeys are compared on.
      <a href="/methodology#referee">How the referee is computed</a>
    </p>
    ${details.length === 0
      ? html`<p>
          No call of season ${season} can be scored yet: the referee needs revealed calls and the hourly
          closes of their slots.
        </p>`
      : html`<h2>Ranked (10 or more scored calls)</h2>
          ${table("ranked")}
          <h2>Proving (fewer than 10)</h2>
          ${table("proving")}
          <h2>Monkey distributions</h2>
          ${details.map(
            (a) =>
              html`<section id="monkeys-${a.agent}">
                <h3>${a.agent}</h3>
                <figure>
                  ${histogramChart(a.histogram, {
                    id: `hist-${a.agent}`,
                    title: `Σr of ${ref.monkeys} monkeys on ${a.agent}'s schedule`,
                    summary: `Monkey sums from ${fixed(a.histogram.min, 4)} to ${fixed(a.histogram.max, 4)}, median ${fixed(a.quantiles.p50, 4)}; ${a.agent} made ${fixed(a.sum_r, 4)}, the ${fixed(a.percentile, 2)}th percentile (red line).`,
                    marker: a.sum_r,
                  })}
                  <figcaption>
                    Monkey sums from ${fixed(a.histogram.min, 4)} to ${fixed(a.histogram.max, 4)} (median
                    ${fixed(a.quantiles.p50, 4)}); ${a.agent}'s Σr ${fixed(a.sum_r, 4)} is the red line,
                    percentile ${fixed(a.percentile, 2)}.
                  </figcaption>
                </figure>
              </section>`,
          )}`}`;
  return layout({ title: "Referee", nav: "referee", body });
}
