/**
 * The one error base of the project: a short message for people, the machine-readable `code`,
 * and `details` naming the offending value. Every package throws a subclass of it.
 */
export class AugurError extends Error {
  override readonly name: string = "AugurError";
  readonly code: string;
  readonly shortMessage: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, shortMessage: string, details: Record<string, unknown> = {}) {
    super(shortMessage);
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
  }
}

/** Input that does not match a documented schema; `path` names the field and row. */
export class InvalidInputError extends AugurError {
  override readonly name = "InvalidInputError";
  readonly path: string;

  constructor(path: string, problem: string, details: Record<string, unknown> = {}) {
    super("INVALID_INPUT", `${path}: ${problem}`, { path, ...details });
    this.path = path;
  }
}
