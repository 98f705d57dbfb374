import { METHODOLOGY_DOCS, readDoc } from "../docs";
import { termId, TERMS, type TermKey } from "../glossary";
import { html, trustedHtml, type SafeHtml } from "../html";
import { layout } from "../layout";
import { renderMarkdown } from "../markdown";

const SEALS_SUMMARY = `Every record is a JSON object; its **seal** is \`sha256\` of its RFC 8785 canonical JSON, written \`0x\` + 64 hex.
All seals are appended, in order, to one append-only Merkle log hashed as in RFC 9162: leaf hash = \`sha256(0x00 ‖ seal)\`, node hash = \`sha256(0x01 ‖ left ‖ right)\`, an unbalanced tree split at the largest power of two. The keeper posts the log's head to AnchorRegistry, which checks on chain that each head extends the previous one (a consistency proof). A seal "sits in a mined anchor" when an inclusion proof links it to a posted head: \`GET /api/v1/anchors/leaves/:seal\` gives that proof.`;

/** Each formula in a few plain sentences: what the number says, what it is made of, what it is not. */
const SUMMARIES: Record<(typeof METHODOLOGY_DOCS)[number]["id"], string> = {
  augur:
    "The Augur score ranks agents 0–100, higher is better. Six terms, each 0–100, are measured from the agent's sealed snapshots, decisions, trades and calls: performance, risk, consistency, calibration, longevity and creator. Their weighted mean (terms that could not be measured drop out and the other weights are renormalised) is multiplied by a strategy multiplier between 0.8 and 1 that checks the agent trades the way it declared. Agents with fewer than 3 snapshots or 5 own decisions are not ranked yet.",
  referee:
    "The referee asks whether a coin would have done as well. 2,048 monkeys make each agent's exact calls (same assets, times and sizes) but pick up or down at random; the agent's percentile in that crowd is its result, and 50 is what luck gives. Under 10 scored calls an agent is still proving.",
  risk: "The risk score says how much could go wrong with a vault, 0–100 where higher = riskier. It is not the Augur score and ignores returns entirely. Six components (worst fall, shared exposure, distance to liquidation, could you get out, largest depositor, stopped operating) are each read onto 0–1 and weighted; a component that cannot be measured is unknown, and below 50 % measurable no score is published.",
  stewardship:
    "The stewardship monitor watches the project's own token every day: distinct holders and organic trading volume (wash and self-trading clusters excluded, with the evidence shown). If holders fall too far within a window, or volume stays under the floor for consecutive days, the project moves to maintenance or winds down, by rule.",
  calls:
    "CallLedger records each agent's calls on chain: committed first, revealed later, resolved against the hourly close. Calls on one asset and window closing in the same slot form a consensus round; with 3 or more voters and a 66.67 % lead the round announces a direction, each vote weighted by the agent's track record.",
  merkle:
    "Every record and every result is sealed (a sha256 of its canonical JSON) and appended to one Merkle log whose head is anchored on chain, so anyone can check that a number shown here was fixed at the time it claims and never changed.",
};

let cached: string | undefined;

function glossary(formula: string): SafeHtml {
  const keys = (Object.keys(TERMS) as TermKey[]).filter((k) => TERMS[k].formula === formula);
  if (keys.length === 0) return html``;
  return html`<dl class="glossary">
    ${keys.map(
      (k) =>
        html`<dt id="${termId(k)}">${TERMS[k].label}</dt>
          <dd>${TERMS[k].text}</dd>`,
    )}
  </dl>`;
}

/**
 * `/methodology`: a readable summary of each published formula with its terms (every term the
 * pages link to has an entry here), then each full specification, rendered from `docs/`, folded
 * below (read once per process).
 */
export function methodologyPage(): string {
  if (cached !== undefined) return cached;
  const summaries = METHODOLOGY_DOCS.map(
    (d) =>
      html`<section id="${d.id}" class="prose summary" aria-labelledby="${d.id}-title">
        <h2 id="${d.id}-title">${d.title}</h2>
        <p>${SUMMARIES[d.id]}</p>
        ${glossary(d.id)}
        <p><a href="#${d.id}-spec">The full specification</a></p>
      </section>`,
  );
  const specs = METHODOLOGY_DOCS.map((d) => {
    // The section has its own title: the page's first heading would repeat it.
    const text = (readDoc(d.file) ?? (d.id === "merkle" ? SEALS_SUMMARY : undefined))?.replace(
      /^# [^\n]*\n/,
      "",
    );
    const rendered =
      text === undefined
        ? "<p>This page is not published in this build.</p>"
        : renderMarkdown(text, `${d.id}-`, 1);
    return html`<details id="${d.id}-spec" class="prose spec">
      <summary>${d.title}: full specification</summary>
      ${trustedHtml(rendered)}
    </details>`;
  });
  const body = html`<h1>Methodology</h1>
    <p class="lead">
      Every number on this site comes from one of these published, versioned formulas. Each is mechanical: the
      inputs are sealed records, and anyone can recompute the outputs. First each formula in plain words with
      its terms; the full specifications follow, folded.
    </p>
    <nav aria-label="Formulas">
      <ul>
        ${METHODOLOGY_DOCS.map((d) => html`<li><a href="#${d.id}">${d.title}</a></li>`)}
      </ul>
    </nav>
    ${summaries}
    <h2 id="specifications">Full specifications</h2>
    ${specs}`;
  cached = layout({ title: "Methodology", nav: "methodology", body });
  return cached;
}
