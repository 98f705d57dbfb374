import { html, trustedHtml, type SafeHtml } from "./html";

// A narrow canvas with large type: at 390 px the chart scales to ~0.75, so 13-unit labels stay
// about 10 px tall; at desktop width it is drawn at its own size.
const W = 480;
const H = 260;
const PAD = { left: 56, right: 14, top: 14, bottom: 34 };

function scale(value: number, min: number, max: number, from: number, to: number): number {
  return max === min ? (from + to) / 2 : from + ((value - min) / (max - min)) * (to - from);
}

const n = (v: number) => v.toFixed(1);

/**
 * About `count` round values (1, 2 or 5 × 10^k apart) from at or below `min` to at or above
 * `max`: the axis runs from the first to the last. Equal bounds get a unit either side.
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return niceTicks(min - (Math.abs(min) || 1), max + (Math.abs(max) || 1), count);
  const raw = (max - min) / count;
  const step10 = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * step10).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * step10;
  const ticks: number[] = [];
  const last = Math.ceil(max / step - 1e-9);
  for (let k = Math.floor(min / step + 1e-9); k <= last; k++) ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

/** A horizontal reference line drawn across the chart, labelled ("arms above 500"). */
export interface Threshold {
  readonly y: number;
  readonly label: string;
}

export interface ChartOptions {
  /** Unique on the page: names the title and description elements. */
  id: string;
  title: string;
  summary: string;
  yLabel: (y: number) => string;
  xLabel: (x: number) => string;
  /** Fixed y range (a score is 0–100); by default the data's, widened to every threshold. */
  yRange?: readonly [number, number];
  xRange?: readonly [number, number];
  thresholds?: readonly Threshold[];
  /** Points only, no line (a calibration chart's bins are not a series). */
  dotsOnly?: boolean;
  /** The y = x line (perfect calibration). */
  diagonal?: boolean;
}

/** Gridlines, tick labels on both axes and the axis lines, as SVG markup. */
function axes(
  x: { min: number; max: number; ticks: number[]; label: (v: number) => string },
  y: { min: number; max: number; ticks: number[]; label: (v: number) => string },
): string {
  const px = (v: number) => scale(v, x.min, x.max, PAD.left, W - PAD.right);
  const py = (v: number) => scale(v, y.min, y.max, H - PAD.bottom, PAD.top);
  const grid = y.ticks
    .map(
      (t) => `<line class="grid" x1="${PAD.left}" y1="${n(py(t))}" x2="${W - PAD.right}" y2="${n(py(t))}"/>`,
    )
    .join("");
  const yText = y.ticks
    .map((t) => `<text x="${PAD.left - 6}" y="${n(py(t) + 4)}" text-anchor="end">${esc(y.label(t))}</text>`)
    .join("");
  const xText = x.ticks
    .map((t, i) => {
      const anchor = x.ticks.length > 1 && i === x.ticks.length - 1 ? "end" : i === 0 ? "start" : "middle";
      return `<line x1="${n(px(t))}" y1="${H - PAD.bottom}" x2="${n(px(t))}" y2="${H - PAD.bottom + 5}" stroke="#5b6470"/><text x="${n(px(t))}" y="${H - PAD.bottom + 19}" text-anchor="${anchor}">${esc(x.label(t))}</text>`;
    })
    .join("");
  return (
    `<g stroke="#e3e7eb">${grid}</g>` +
    `<g stroke="#8a939c"><line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}"/><line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}"/></g>` +
    `<g class="chart-axis" font-size="13" fill="#5b6470">${yText}${xText}</g>`
  );
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** At most `count` of the points' x values, evenly picked (labels for a time axis). */
function xTicksOf(min: number, max: number, count: number): number[] {
  if (max === min) return [min];
  return Array.from({ length: count }, (_, i) => min + ((max - min) * i) / (count - 1));
}

/**
 * A line (or dot) chart as inline SVG with gridlines, axis ticks and optional threshold lines.
 * `summary` is the text alternative (the chart's accessible name); the page gives the numbers too.
 */
export function lineChart(points: readonly { x: number; y: number }[], options: ChartOptions): SafeHtml {
  if (points.length === 0) return html`<p class="muted">No data to chart yet.</p>`;
  const xs = points.map((p) => p.x);
  const ys = [...points.map((p) => p.y), ...(options.thresholds ?? []).map((t) => t.y)];
  const [xMin, xMax] = options.xRange ?? [Math.min(...xs), Math.max(...xs)];
  const yTicks = niceTicks(...(options.yRange ?? [Math.min(...ys), Math.max(...ys)]));
  const [yMin, yMax] = [yTicks[0]!, yTicks.at(-1)!];
  const px = (x: number) => scale(x, xMin, xMax, PAD.left, W - PAD.right);
  const py = (y: number) => scale(y, yMin, yMax, H - PAD.bottom, PAD.top);
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${n(px(p.x))} ${n(py(p.y))}`).join(" ");
  const dots = points.map((p) => `<circle cx="${n(px(p.x))}" cy="${n(py(p.y))}" r="3.5"/>`).join("");
  const thresholds = (options.thresholds ?? [])
    .map(
      (t) =>
        `<g class="threshold"><line x1="${PAD.left}" y1="${n(py(t.y))}" x2="${W - PAD.right}" y2="${n(py(t.y))}" stroke="#a3262a" stroke-width="1.5" stroke-dasharray="6 4"/><text x="${W - PAD.right - 4}" y="${n(py(t.y) - 5)}" text-anchor="end" font-size="13" fill="#a3262a">${esc(t.label)}</text></g>`,
    )
    .join("");
  const diagonal = options.diagonal
    ? `<line x1="${n(px(xMin))}" y1="${n(py(xMin))}" x2="${n(px(xMax))}" y2="${n(py(xMax))}" stroke="#8a939c" stroke-dasharray="4 4"/>`
    : "";
  const grid = axes(
    {
      min: xMin,
      max: xMax,
      ticks: options.xRange ? niceTicks(xMin, xMax, 5) : xTicksOf(xMin, xMax, Math.min(4, points.length)),
      label: options.xLabel,
    },
    { min: yMin, max: yMax, ticks: yTicks, label: options.yLabel },
  );
  return html`<svg
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-labelledby="${options.id}-title ${options.id}-desc"
    width="${W}"
    height="${H}"
    id="${options.id}"
  >
    <title id="${options.id}-title">${options.title}</title>
    <desc id="${options.id}-desc">${options.summary}</desc>
    ${trustedHtml(grid)} ${trustedHtml(diagonal)}
    ${options.dotsOnly
      ? ""
      : html`<path d="${trustedHtml(path)}" fill="none" stroke="#0b5cad" stroke-width="2" />`}
    <g fill="#0b5cad">${trustedHtml(dots)}</g>
    ${trustedHtml(thresholds)}
  </svg>`;
}

/** A histogram as inline SVG with axis ticks, and an optional marker (the agent's own value). */
export function histogramChart(
  hist: { min: number; max: number; counts: readonly number[] },
  options: { title: string; summary: string; marker?: number; id: string; xLabel?: (x: number) => string },
): SafeHtml {
  if (hist.counts.length === 0) return html`<p class="muted">No distribution yet.</p>`;
  const top = Math.max(...hist.counts);
  const yTicks = niceTicks(0, Math.max(1, top), 4);
  const yMax = yTicks.at(-1)!;
  const bw = (W - PAD.left - PAD.right) / hist.counts.length;
  const bars = hist.counts
    .map((c, i) => {
      const h = ((H - PAD.top - PAD.bottom) * c) / yMax;
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
  const label = options.xLabel ?? ((x: number) => x.toPrecision(3));
  const grid = axes(
    { min: hist.min, max: hist.max, ticks: xTicksOf(hist.min, hist.max, 3), label },
    { min: 0, max: yMax, ticks: yTicks, label: (y) => String(y) },
  );
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
    ${trustedHtml(grid)}
    <g fill="#9bb8d3">${trustedHtml(bars)}</g>
    ${trustedHtml(marker)}
  </svg>`;
}
