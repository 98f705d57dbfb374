import { type SealedClose, sealClose, HOUR_SECONDS } from "../../src/closes/record";
import type { CallRecordBody } from "@augur/records";
import type { EngineRecord } from "../../src/store/append";

const LEDGER = "0x3333333333333333333333333333333333333333";
const ORACLE = "0x4444444444444444444444444444444444444444";

/** One revealed and settled call as the chain indexer seals it (`augur-call/v1`), for referee tests. */
export function testCallRecord(call: {
  readonly agentId: string;
  readonly seasonId: string;
  readonly callId: number;
  readonly asset: string;
  /** Unix seconds of the reveal. */
  readonly revealedAt: number;
  readonly windowHours: number;
  readonly direction: "up" | "down";
  readonly confidenceBps: number;
}): EngineRecord {
  const window = call.windowHours * HOUR_SECONDS;
  const closesAt = call.revealedAt + window;
  const body: CallRecordBody = {
    format: "augur-call/v1",
    chainId: 31337,
    ledger: LEDGER,
    callId: String(call.callId),
    agent: "0x5555555555555555555555555555555555555555",
    agentId: call.agentId,
    seasonId: call.seasonId,
    outcome: "hit",
    confidenceBps: call.confidenceBps,
    resolvedAt: closesAt + 60,
    resolveTx: `0x${call.callId.toString(16).padStart(64, "0")}`,
    reveal: {
      asset: call.asset,
      window,
      direction: call.direction,
      confidenceBps: call.confidenceBps,
      entryPrice: "100000000000000000000",
      closesAt,
      vote: "1",
      revealTx: `0x${call.callId.toString(16).padStart(64, "f")}`,
    },
    exitPrice: "101000000000000000000",
  };
  return { kind: "call", agentId: call.agentId, seasonId: call.seasonId, body };
}

/** Sealed hourly closes of `asset` for hours [fromHour, toHour] (hour numbers), priced by `price`. */
export function testCloses(
  asset: string,
  fromHour: number,
  toHour: number,
  price: (hour: number) => number,
): SealedClose[] {
  const closes: SealedClose[] = [];
  for (let hour = fromHour; hour <= toHour; hour++) {
    closes.push(
      sealClose({
        chainId: 31337,
        oracle: ORACLE,
        asset,
        at: hour * HOUR_SECONDS,
        price18: BigInt(Math.round(price(hour) * 1e6)) * 10n ** 12n,
        twapWindow: 300,
      }),
    );
  }
  return closes;
}
