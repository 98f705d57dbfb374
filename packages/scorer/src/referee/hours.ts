/** One hour of UTC time as an integer: milliseconds since 1970 divided by 3,600,000. */
export type Hour = number;

const MS_PER_HOUR = 3_600_000;

// An ISO-8601 UTC instant on the hour: 2026-11-30T07:00:00Z, optional seconds/fraction of zeros.
const ISO_HOUR = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):00(?::00(?:\.0+)?)?(?:Z|\+00:00)$/;

/** The hour an ISO-8601 UTC string names, or undefined if it is not exactly on a UTC hour. */
export function parseIsoHour(text: string): Hour | undefined {
  const match = ISO_HOUR.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour] = match.slice(1).map(Number) as [number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March; a real date survives the round trip.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    return undefined;
  }
  if (back.getUTCHours() !== hour) return undefined;
  return ms / MS_PER_HOUR;
}

/** The canonical ISO-8601 form of an hour: `YYYY-MM-DDTHH:00:00Z`. */
export function formatIsoHour(hour: Hour): string {
  return new Date(hour * MS_PER_HOUR).toISOString().replace(".000Z", "Z");
}
