/** JSON with bigints as decimal strings (call ids and amounts exceed 2^53). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2);
}

/** Prints the machine form with --json, else the human lines; returns the value for hre.run callers. */
export function report<T>(json: boolean, value: T, human: () => string[]): T {
  if (json) console.log(toJson(value));
  else for (const line of human()) console.log(line);
  return value;
}
