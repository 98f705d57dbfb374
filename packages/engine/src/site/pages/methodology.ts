import { METHODOLOGY_DOCS, readDoc } from "../docs";
import { html, trustedHtml } from "../html";
import { layout } from "../layout";
import { renderMarkdown } from "../markdown";

const SEALS_SUMMARY = `Every record is a JSON object; its **seal** is \`sha256\` of its RFC 8785 canonical JSON, written \`0x\` + 64 hex.
All seals are appended, in order, to one append-only Merkle log hashed as in RFC 9162: leaf hash = \`sha256(0x00 ‖ seal)\`, node hash = \`sha256(0x01 ‖ left ‖ right)\`, an unbalanced tree split at the largest power of two. The keeper posts the log's head to AnchorRegistry, which checks on chain that each head extends the previous one (a consistency proof). A seal "sits in a mined anchor" when an inclusion proof links it to a posted head: \`GET /api/v1/anchors/leaves/:seal\` gives that proof.`;

let cached: string | undefined;

/** `/methodology`: each published formula, rendered from `docs/` (read once per process). */
export function methodologyPage(): string {
  if (cached !== undefined) return cached;
  const sections = METHODOLOGY_DOCS.map((d) => {
    // The section has its own title: the page's first heading would repeat it.
    const text = (readDoc(d.file) ?? (d.id === "merkle" ? SEALS_SUMMARY : undefined))?.replace(
      /^# [^\n]*\n/,
      "",
    );
    const rendered =
      text === undefined
        ? "<p>This page is not published in this build.</p>"
        : renderMarkdown(text, `${d.id}-`, 2);
    return html`<section id="${d.id}" class="prose" aria-labelledby="${d.id}-title">
      <h2 id="${d.id}-title">${d.title}</h2>
      ${trustedHtml(rendered)}
    </section>`;
  });
  const body = html`<h1>Methodology</h1>
    <p class="lead">
      Every number on this site comes from one of these published, versioned formulas. Each is mechanical: the
      inputs are sealed records, and anyone can recompute the outputs.
    </p>
    <nav aria-label="Formulas">
      <ul>
        ${METHODOLOGY_DOCS.map((d) => html`<li><a href="#${d.id}">${d.title}</a></li>`)}
      </ul>
    </nav>
    ${sections}`;
  cached = layout({ title: "Methodology", nav: "methodology", body });
  return cached;
}
