import { html, trustedHtml, type SafeHtml } from "./html";

const W = 640;
const H = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };

function scale(value: number, min: number, max: number, from: number, to: number): number {
  return max === min ? (from + to) / 2 : from + ((value - min) / (max - min)) * (to - from);
}

const n = (v: number) => v.toFixed(1);

/**
 * A line chart as inline SVG. `summary` is the text alternative (the chart's accessible name);
 * the numbers behind it are also given as a table by the page.
 */
export function lineChart(
  points: readonly { x: number; y: number }[],
  options: {
    /** Unique on the page: names the title and description elements. */
    id: string;
    title: string;
    summary: string;
    yLabel: (y: number) => string;
    xLabel: (x: number) => string;
  },
): SafeHtml {
  if (points.length === 0) return html`<p class="muted">No data to chart yet.</p>`;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const [yMin, yMax] = [Math.min(...ys), Math.max(...ys)];
  const px = (x: number) => scale(x, xMin, xMax, PAD.left, W - PAD.right);
  const py = (y: number) => scale(y, yMin, yMax, H - PAD.bottom, PAD.top);
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${n(px(p.x))} ${n(py(p.y))}`).join(" ");
  const dots = points.map((p) => `<circle cx="${n(px(p.x))}" cy="${n(py(p.y))}" r="3"/>`).join("");
  return html`<svg
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-labelledby="${options.id}-title ${options.id}-desc"
    width="${W}"
    height="${H}"
  >
    <title id="${options.id}-title">${options.title}</title>
    <desc id="${options.id}-desc">${options.summary}</desc>
    <g stroke="#d8dde3">
      <line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" />
      <line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}" />
    </g>
    <g font-size="11" fill="#5b6470">
      <text x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${options.yLabel(yMax)}</text>
      <text x="${PAD.left - 4}" y="${H - PAD.bottom}" text-anchor="end">${options.yLabel(yMin)}</text>
      <text x="${PAD.left}" y="${H - 8}">${options.xLabel(xMin)}</text>
      <text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${options.xLabel(xMax)}</text>
    </g>
    <path d="${trustedHtml(path)}" fill="none" stroke="#0b5cad" stroke-width="2" />
    <g fill="#0b5cad">${trustedHtml(dots)}</g>
  </svg>`;
}

/** A histogram as inline SVG, with an optional marker (the agent's own value). */
export function histogramChart(
  hist: { min: number; max: number; counts: readonly number[] },
  options: { title: string; summary: string; marker?: number; id: string },
): SafeHtml {
  if (hist.counts.length === 0) return html`<p class="muted">No distribution yet.</p>`;
  const top = Math.max(...hist.counts);
  const bw = (W - PAD.left - PAD.right) / hist.counts.length;
  const bars = hist.counts
    .map((c, i) => {
      const h = top === 0 ? 0 : ((H - PAD.top - PAD.bottom) * c) / top;
      return `<rect x="${n(PAD.left + i * bw + 1)}" y="${n(H - PAD.bottom - h)}" width="${n(Math.max(1, bw - 2))}" height="${n(h)}"/>`;
    })
    .join("");
  let marker = "";
  if (options.marker !== undefined) {
    const x = scale(
      Math.min(hist.max, Math.max(hist.min, options.marker)),
      hist.min,
      hist.max,
      PAD.left,
      W - PAD.right,
    );
    marker = `<line x1="${n(x)}" y1="${PAD.top}" x2="${n(x)}" y2="${H - PAD.bottom}" stroke="#a3262a" stroke-width="2"/>`;
  }
  const titleId = `${options.id}-title`;
  const descId = `${options.id}-desc`;
  return html`<svg
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-labelledby="${titleId} ${descId}"
    width="${W}"
    height="${H}"
  >
    <title id="${titleId}">${options.title}</title>
    <desc id="${descId}">${options.summary}</desc>
    <g fill="#9bb8d3">${trustedHtml(bars)}</g>
    ${trustedHtml(marker)}
    <g font-size="11" fill="#5b6470">
      <text x="${PAD.left}" y="${H - 8}">${hist.min.toPrecision(3)}</text>
      <text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${hist.max.toPrecision(3)}</text>
    </g>
  </svg>`;
}
