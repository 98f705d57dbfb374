import { escapeHtml } from "./html";

/**
 * A small Markdown renderer for the subset `docs/*.md` use: ATX headings, paragraphs, fenced
 * code, pipe tables, bullet and numbered lists (one level), and inline code, bold, italics and
 * links. Everything is escaped first; only markup this function writes reaches the page, and a
 * link keeps its target only when it is relative, an anchor or http(s).
 */
export function renderMarkdown(source: string, idPrefix = "", headingOffset = 1): string {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let i = 0;
  const para: string[] = [];
  const flush = () => {
    if (para.length > 0) out.push(`<p>${inline(para.join(" "))}</p>`);
    para.length = 0;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^(\s*)(```|~~~)(.*)$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[2]!)) body.push(lines[i++]!);
      i++;
      out.push(`<pre><code>${escapeHtml(body.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1]!.length + headingOffset); // the page's own headings come first
      const text = heading[2]!.trim();
      out.push(`<h${level} id="${idPrefix}${slug(text)}">${inline(text)}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1]!)) {
      flush();
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i]!)) rows.push(cells(lines[i++]!));
      out.push(
        `<div class="table-wrap"><table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join("")}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`)
          .join("")}</tbody></table></div>`,
      );
      continue;
    }
    const bullet = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (bullet) {
      flush();
      const ordered = /\d/.test(bullet[1]!);
      const items: string[] = [];
      while (i < lines.length) {
        const item = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(lines[i]!);
        if (item && /\d/.test(item[1]!) === ordered) {
          items.push(item[2]!);
          i++;
        } else if (items.length > 0 && startsNothing(lines[i]!)) {
          items[items.length - 1] += ` ${lines[i]!.trim()}`; // continuation line (indented or lazy)
          i++;
        } else break;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((it) => `<li>${inline(it)}</li>`).join("")}</${tag}>`);
      continue;
    }
    if (line.trim() === "") flush();
    else para.push(line.trim());
    i++;
  }
  flush();
  return out.join("\n");
}

/** A non-blank line that opens no block of its own continues the list item above it. */
function startsNothing(line: string): boolean {
  return line.trim() !== "" && !/^\s*(```|~~~|#{1,6}\s|\|)/.test(line);
}

function cells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split("|").map((c) => c.trim());
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_[\]()]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function safeHref(url: string): string | null {
  if (
    /^(https?:\/\/|#|\/(?!\/)|\.{0,2}\/?[a-z0-9_.-]+(#[a-z0-9_-]*)?$)/i.test(url) &&
    !/^\s*javascript:/i.test(url)
  )
    return url;
  return null;
}

/** Inline spans; code spans are cut out first so nothing inside them is interpreted. */
export function inline(text: string): string {
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((part) => {
      if (part.length >= 2 && part.startsWith("`") && part.endsWith("`"))
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      let s = escapeHtml(part);
      s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) => {
        const href = safeHref(url.replace(/&amp;/g, "&"));
        return href === null ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
      });
      s = s.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
      s = s.replace(/(^|[\s(])_([^_]+)_(?=[\s).,;:]|$)/g, "$1<em>$2</em>");
      s = s.replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:]|$)/g, "$1<em>$2</em>");
      return s;
    })
    .join("");
}
