import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import { DOCS_DIR, METHODOLOGY_DOCS } from "./docs";
import { inline, renderMarkdown } from "./markdown";

describe("markdown renderer (the docs/ subset)", () => {
  it("renders headings with prefixed ids, paragraphs, lists and fenced code", () => {
    const out = renderMarkdown(
      "# Title\n\nSome *text* and **bold**.\n\n- one\n- two `x<y`\n\n```\na < b && c\n```\n",
      "d-",
      2,
    );
    expect(out).to.contain('<h3 id="d-title">Title</h3>');
    expect(out).to.contain("<p>Some <em>text</em> and <strong>bold</strong>.</p>");
    expect(out).to.contain("<ul><li>one</li><li>two <code>x&lt;y</code></li></ul>");
    expect(out).to.contain("<pre><code>a &lt; b &amp;&amp; c</code></pre>");
  });

  it("continues a list item over indented and lazy lines, so a code span may wrap", () => {
    const out = renderMarkdown("- proof\n  `[0xaa,\n0xbb]`\n- next\n\nafter");
    expect(out).to.equal("<ul><li>proof <code>[0xaa, 0xbb]</code></li><li>next</li></ul>\n<p>after</p>");
  });

  it("renders pipe tables inside a scrolling wrapper", () => {
    const out = renderMarkdown("| a | b |\n| --- | --: |\n| 1 | `2` |\n");
    expect(out).to.equal(
      '<div class="table-wrap"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><code>2</code></td></tr></tbody></table></div>',
    );
  });

  it("escapes raw HTML everywhere and drops unsafe link targets", () => {
    const out = renderMarkdown(
      '<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](#ok) [z](https://e.org/a?b=1&c=2) <img src=x onerror="1">',
    );
    expect(out).not.to.match(/<script|<img|javascript:/);
    expect(out).to.contain("&lt;script&gt;");
    expect(out).to.contain('<a href="#ok">y</a>');
    expect(out).to.contain('<a href="https://e.org/a?b=1&amp;c=2">z</a>');
    expect(inline("a `<b>` *c*")).to.equal("a <code>&lt;b&gt;</code> <em>c</em>");
  });

  it("renders every published methodology page with no raw tag left from the source", () => {
    const present = new Set(readdirSync(DOCS_DIR));
    const rendered = METHODOLOGY_DOCS.filter((d) => present.has(d.file));
    expect(rendered.length).to.be.at.least(4);
    for (const d of rendered) {
      const out = renderMarkdown(readFileSync(join(DOCS_DIR, d.file), "utf8"), `${d.id}-`, 2);
      // Every tag in the output is one the renderer writes.
      const tags = new Set([...out.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
      for (const tag of tags) {
        expect([
          "h2",
          "h3",
          "h4",
          "h5",
          "h6",
          "p",
          "pre",
          "code",
          "ul",
          "ol",
          "li",
          "div",
          "table",
          "thead",
          "tbody",
          "tr",
          "th",
          "td",
          "a",
          "strong",
          "em",
        ]).to.include(tag, d.file);
      }
      expect(out).to.contain("<h3");
    }
  });
});
