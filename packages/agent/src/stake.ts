import { send, type LedgerContext, type Sent } from "./client";
import { BadArgumentError, InsufficientBalanceError, StakeLockedError } from "./errors";

function positive(amount: bigint, argument: string): void {
  if (amount <= 0n) throw new BadArgumentError(argument, "must be a positive amount", amount);
}

/** Approves the ledger for exactly `amount` if needed, then deposits it as stake. */
export async function depositStake(
  context: LedgerContext,
  amount: bigint,
): Promise<Sent & { stake: bigint }> {
  positive(amount, "amount");
  const balance = (await context.usdg.getFunction("balanceOf")(context.agent)) as bigint;
  if (balance < amount) throw new InsufficientBalanceError("the USDG balance", balance, amount);
  const allowance = (await context.usdg.getFunction("allowance")(
    context.agent,
    context.ledger.target,
  )) as bigint;
  if (allowance < amount) await send(context.usdg.getFunction("approve"), [context.ledger.target, amount]);
  const sent = await send(context.ledger.getFunction("deposit"), [amount]);
  return {
    ...sent,
    stake: ((await context.ledger.getFunction("record")(context.agent)) as { stake: bigint }).stake,
  };
}

/** Withdraws stake; refused before sending if it would leave open calls under-staked. */
export async function withdrawStake(
  context: LedgerContext,
  amount: bigint,
): Promise<Sent & { stake: bigint }> {
  positive(amount, "amount");
  const [record, minStake] = await Promise.all([
    context.ledger.getFunction("record")(context.agent) as Promise<{ stake: bigint; openCalls: bigint }>,
    context.ledger.getFunction("minStake")() as Promise<bigint>,
  ]);
  if (record.stake < amount) throw new InsufficientBalanceError("the stake", record.stake, amount);
  const remaining = record.stake - amount;
  if (record.openCalls > 0n && remaining < minStake)
    throw new StakeLockedError(remaining, minStake, record.openCalls);
  const sent = await send(context.ledger.getFunction("withdraw"), [amount]);
  return { ...sent, stake: remaining };
}
