import type { Store } from "../store/open";
import { eraseText, erasuresOf } from "../store/queries/erasure";
import { dayOf } from "../modes/days";
import { checkedReason } from "../modes/records";
import { ErasureRefusedError } from "./errors";
import { sealedFields, sealedHash } from "./texts";

export interface ErasureResult {
  readonly seal: string;
  readonly field: string;
  /** False when no text had been posted: the field is closed all the same. */
  readonly textDeleted: boolean;
  readonly erasedAt: number;
}

/**
 * Honours an erasure request: deletes the text and salt of one erasable field of a sealed record
 * and logs the erasure (seal, field, date, the ground given — never who asked). The sealed body
 * keeps only the salted hash, so the seal, the log and every proof are untouched. Refused with one
 * line for an unknown seal or field and for a field already erased.
 */
export async function eraseField(
  store: Store,
  args: { readonly seal: string; readonly field: string; readonly reason?: string; readonly now: number },
): Promise<ErasureResult> {
  const seal = args.seal.toLowerCase();
  const reason = args.reason === undefined ? null : checkedReason(args.reason, "reason");
  const record = await sealedFields(store.db, seal);
  sealedHash(record, args.field); // refuses a field the record's kind does not have
  const before = (await erasuresOf(store.db, seal)).find((e) => e.field === args.field);
  if (before) {
    const day = dayOf(before.erased_at);
    throw new ErasureRefusedError(
      409,
      "ALREADY_ERASED",
      `the ${args.field} of record ${seal} was already erased on ${day}`,
    );
  }
  const row = { seal, field: args.field, erased_at: args.now, reason };
  const textDeleted = await eraseText(store.db, store.dialect, row);
  return { seal, field: args.field, textDeleted, erasedAt: args.now };
}
