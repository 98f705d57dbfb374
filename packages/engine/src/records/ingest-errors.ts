import { RecordRefusedError } from "@augur/records";
import { AugurError, InvalidInputError } from "@augur/scorer";

/**
 * An ingestion error as plain data, so it can cross from an ingest worker to the main thread
 * (structured clone keeps neither classes nor fields). The API answers a rebuilt error with the
 * same status, code and message as the original (api/errors.ts classifies by class).
 */
export type WireError =
  | {
      readonly kind: "refused";
      readonly status: number;
      readonly code: string;
      readonly message: string;
      readonly details: Record<string, unknown>;
    }
  | { readonly kind: "invalid"; readonly message: string; readonly details: Record<string, unknown> }
  | {
      readonly kind: "other";
      readonly code: string;
      readonly message: string;
      readonly details: Record<string, unknown>;
    };

/** Details through JSON: a worker's error may hold values structured clone would refuse. */
function plain(details: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(details)) as Record<string, unknown>;
}

export function toWire(error: unknown): WireError {
  if (error instanceof RecordRefusedError) {
    const { status, code, shortMessage: message } = error;
    return { kind: "refused", status, code, message, details: plain(error.details) };
  }
  if (error instanceof InvalidInputError)
    return { kind: "invalid", message: error.shortMessage, details: plain(error.details) };
  if (error instanceof AugurError)
    return { kind: "other", code: error.code, message: error.shortMessage, details: plain(error.details) };
  return { kind: "other", code: "INTERNAL", message: String(error), details: {} };
}

export function fromWire(wire: WireError): Error {
  switch (wire.kind) {
    case "refused":
      return new RecordRefusedError(wire.status, wire.code, wire.message, wire.details);
    case "invalid": {
      // InvalidInputError builds its message as `${path}: ${problem}`.
      const { path, ...rest } = wire.details as { path: string };
      return new InvalidInputError(path, wire.message.slice(path.length + 2), rest);
    }
    default:
      return new AugurError(wire.code, wire.message, wire.details);
  }
}

/** A submission the server will not take because it is stopping (503): nothing was stored. */
export function shuttingDown(): RecordRefusedError {
  return new RecordRefusedError(
    503,
    "SHUTTING_DOWN",
    "the server is stopping: nothing was stored, send it again later",
  );
}
