import { AugurError } from "@augur/scorer";

/** An operator notice the rules refuse (a methodology change under 14 days ahead, a notice in wind-down). */
export class NoticeRefusedError extends AugurError {
  override readonly name = "NoticeRefusedError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("NOTICE_REFUSED", message, details);
  }
}

/** New spend asked for while the mode forbids it (maintenance, wind-down, archive). */
export class SpendRefusedError extends AugurError {
  override readonly name = "SpendRefusedError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("SPEND_REFUSED", message, details);
  }
}

/** A write while the system winds down or is archived; the API answers it with `status`. */
export class WindingDownError extends AugurError {
  override readonly name = "WindingDownError";
  readonly status = 410;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("WINDING_DOWN", message, details);
  }
}

/** A receipt argument or chain answer that cannot give a reproducible receipt. */
export class ReceiptInputError extends AugurError {
  override readonly name = "ReceiptInputError";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("RECEIPT_INPUT", message, details);
  }
}

/** The final notice is sealed: nothing is sealed, ingested or cycled after it (HTTP 410). */
export class FinalNoticeSealedError extends AugurError {
  override readonly name = "FinalNoticeSealedError";
  readonly status = 410;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("FINAL_NOTICE_SEALED", message, details);
  }
}

/** The wind-down's burn of the operator allocation cannot be done as asked (a wrong signer or address, burned already). */
export class VestingBurnError extends AugurError {
  override readonly name = "VestingBurnError";
  constructor(
    code: "NOT_OPERATOR" | "ALREADY_BURNED" | "VESTING_CONFIG",
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, details);
  }
}
