/** Number and time formats shared by the pages. */
export function fixed(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

export function percent(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? "—"
    : `${(value * 100).toFixed(digits)} %`;
}

export function utc(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  return new Date(seconds * 1000).toISOString().replace(".000Z", "Z").replace("T", " ");
}

export function shortHex(hex: string): string {
  return hex.length > 14 ? `${hex.slice(0, 10)}…${hex.slice(-4)}` : hex;
}

const REASONS: Record<string, string> = {
  too_few_snapshots: "Not ranked: fewer than 3 snapshots",
  too_few_own_decisions: "Not ranked: fewer than 5 own decisions",
  invalid_input: "No score: a record could not be scored",
  insufficient_measurable: "No score: under 50 % measurable",
};

/** The sentence shown in place of a missing number. */
export function reasonText(reason: string | null): string {
  return reason === null ? "No score" : (REASONS[reason] ?? `No score: ${reason.replace(/_/g, " ")}`);
}

/** Value for a cell's `data-value` (sorting); null becomes empty, which sorts last. */
export function sortValue(value: number | string | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A window length in hours ("4 h", "0.5 h"). */
export function hoursText(seconds: number): string {
  const h = seconds / 3600;
  return `${Number.isInteger(h) ? h : h.toFixed(1)} h`;
}

/** A time span as people read it: "2026-12-06 04:00–08:00 UTC", the date twice only when it changes. */
export function spanText(from: number, until: number): string {
  const [a, b] = [utc(from).slice(0, 16), utc(until).slice(0, 16)];
  return a.slice(0, 10) === b.slice(0, 10) ? `${a}–${b.slice(11)} UTC` : `${a} – ${b} UTC`;
}
