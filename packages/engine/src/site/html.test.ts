import { expect } from "chai";
import { escapeHtml, html, trustedHtml } from "./html";

describe("html template", () => {
  it("escapes every interpolated string, including quotes in attributes", () => {
    const evil = `"><script>alert('x')</script>&`;
    const out = html`<a title="${evil}">${evil}</a>`.text;
    expect(out).to.equal(
      `<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>`,
    );
    expect(out).not.to.contain("<script>");
  });

  it("passes nested fragments through once, joins arrays, drops null/undefined/false", () => {
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p>${inner}${[html`<hr />`, "&"]}${null}${undefined}${false}${0}</p>`.text).to.equal(
      "<p><b>&lt;i&gt;</b><hr />&amp;0</p>",
    );
  });

  it("only trustedHtml bypasses escaping", () => {
    expect(html`${trustedHtml("<svg/>")}`.text).to.equal("<svg/>");
    expect(escapeHtml("<svg/>")).to.equal("&lt;svg/&gt;");
  });
});
