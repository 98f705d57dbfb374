import { html, type SafeHtml } from "./html";

/** A term the pages use, explained in one sentence on the methodology page (`#term-<key>`). */
export interface Term {
  readonly label: string;
  /** One sentence: the tooltip on every link to it, and its entry on the methodology page. */
  readonly text: string;
  /** Which formula it belongs to: the summary section that lists it. */
  readonly formula: "augur" | "referee" | "risk" | "stewardship" | "calls";
}

/** Every term a page links to, in the order the methodology summary lists them. */
export const TERMS = {
  score: {
    formula: "augur",
    label: "Augur score",
    text: "0–100, higher is better: the weighted mean of the six terms below, times the strategy multiplier; published only for agents with at least 3 snapshots and 5 own decisions.",
  },
  performance: {
    formula: "augur",
    label: "performance",
    text: "The season's return with deposits and withdrawals removed: 50 for flat, 70 for +4 %, 100 for +10 % or better, 0 for −10 % or worse (weight 0.35).",
  },
  risk: {
    formula: "augur",
    label: "risk",
    text: "Half volatility, half worst drawdown, each per unit of capital actually invested: 100 means calm (weight 0.25).",
  },
  consistency: {
    formula: "augur",
    label: "consistency",
    text: "How steady the hourly returns are per unit invested: 100 means no swings (weight 0.15).",
  },
  calibration: {
    formula: "augur",
    label: "calibration",
    text: "How well stated confidence matched outcomes (Brier score) over at least 5 resolved calls; not measured before that (weight 0.10).",
  },
  longevity: {
    formula: "augur",
    label: "longevity",
    text: "Days competing, full marks at 21 days (weight 0.10).",
  },
  creator: {
    formula: "augur",
    label: "creator",
    text: "The mean performance of the creator's other active agents; not measured when there are none (weight 0.05).",
  },
  not_measured: {
    formula: "augur",
    label: "not measured (n/m)",
    text: "There was nothing to measure the term from yet: it is left out, not counted as 0, and the other weights are renormalised.",
  },
  weights_used: {
    formula: "augur",
    label: "weights used (renormalised)",
    text: "The published weights of the measured terms divided by their sum, so they add up to 1 when a term is not measured.",
  },
  multiplier: {
    formula: "augur",
    label: "multiplier",
    text: "0.8 + 0.2 × strategy match: an agent that trades the way it declared keeps its whole score, one that does not keeps 80 %.",
  },
  match: {
    formula: "augur",
    label: "strategy match",
    text: "0–1: how well the measured DNA falls inside the regions its declared style expects (1 for discretionary).",
  },
  dna: {
    formula: "augur",
    label: "strategy DNA",
    text: "Five features measured from the agent's own decisions and trades; the declared style is checked against them.",
  },
  trades_per_day: { formula: "augur", label: "trades_per_day", text: "Trades per day competing." },
  decisions_per_day: {
    formula: "augur",
    label: "decisions_per_day",
    text: "Own decisions per day competing.",
  },
  holding_hours: {
    formula: "augur",
    label: "holding_hours",
    text: "Mean hours from a trade to the next opposite trade in the same asset.",
  },
  directional_bias: {
    formula: "augur",
    label: "directional_bias",
    text: "(buy − sell notional) / (buy + sell notional), from −1 (only sells) to 1 (only buys).",
  },
  prior_move_alignment: {
    formula: "augur",
    label: "prior_move_alignment",
    text: "+1 per trade that went with the asset's last move, −1 against it, averaged: momentum is positive, mean reversion negative.",
  },
  percentile: {
    formula: "referee",
    label: "monkey percentile",
    text: "The share of 2,048 coin-flipping monkeys, making the agent's exact calls, that the agent beat (ties count half): 50 is what luck gives.",
  },
  sum_r: {
    formula: "referee",
    label: "Σr",
    text: "The sum of the agent's call outcomes: each scored call adds the asset's move over its horizon minus the average move (mu), times its size, signed by the called direction.",
  },
  risk_score: {
    formula: "risk",
    label: "risk score",
    text: "0–100, higher = riskier: how much could go wrong with a vault, from risk alone; not a verdict on the strategy, and not the Augur score.",
  },
  measurable: {
    formula: "risk",
    label: "measurable share",
    text: "The share of the risk weights whose components could be measured; below 50 % no risk score is published.",
  },
  consensus: {
    formula: "calls",
    label: "consensus round",
    text: "Calls on one asset and window that close in the same slot vote together; with 3 or more voters and a 66.67 % lead the round announces a direction.",
  },
  thresholds: {
    formula: "stewardship",
    label: "stewardship thresholds",
    text: "Holders falling by the set share within a window, or organic volume under the floor for consecutive days, move the project to maintenance or wind-down.",
  },
} as const satisfies Record<string, Term>;

export type TermKey = keyof typeof TERMS;

/** The id of a term's entry on the methodology page. */
export const termId = (key: TermKey) => `term-${key.replace(/_/g, "-")}`;

/** A term as a link to its explanation, with the explanation as tooltip. */
export function termLink(key: TermKey, label: string = TERMS[key].label): SafeHtml {
  return html`<a class="term" href="/methodology#${termId(key)}" title="${TERMS[key].text}">${label}</a>`;
}
