/** HTML that is already safe to send: built only by `html` or `trustedHtml`. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const NEEDS_ESCAPE = /[&<>"']/;

export function escapeHtml(value: string): string {
  // Most values (numbers, ids) need nothing: skip the replace for them.
  return NEEDS_ESCAPE.test(value) ? value.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : value;
}

/** A value placed into a template: safe fragments pass through, arrays join, the rest is escaped. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (typeof value === "string") return escapeHtml(value);
  if (typeof value === "number") return String(value);
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) {
    let out = "";
    for (const item of value as readonly HtmlValue[]) out += render(item);
    return out;
  }
  return escapeHtml(String(value));
}

/** The one way pages build markup: every interpolated value is escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup written by this code itself (inline CSS, script, SVG path data built from numbers). */
export function trustedHtml(text: string): SafeHtml {
  return new SafeHtml(text);
}
