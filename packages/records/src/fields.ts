import { STYLES } from "@augur/scorer";

/**
 * The signed record types, field by field. One table drives the EIP-712 types, the HTTP
 * JSON schema and the validator, so the three can never disagree. `RegistrationV2` is the
 * registration that binds the agent's wallet (the account holding its book); `Registration`
 * (v1, no wallet) stays readable and is accepted only in seasons whose inputs are declared.
 * `DecisionV2` is a decision that names the transaction of its trade (`txHash`, buy and sell
 * only); `Decision` (no trade named) stays valid in every season. `DecisionV3` keeps its free text
 * out of the sealed body: it signs `noteHash` = sha256(salt ‖ note) (`erasable.ts`), and the note
 * itself is stored beside the record, erasable on request (docs/engine.md, "Erasable text").
 */
export type FieldType = "string" | "address" | "uint16" | "uint64" | "uint256" | "int256" | "bytes32";

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  /** Strings: the allowed values, or a pattern and a maximum length. */
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly maxLength?: number;
  /** Integers held as JSON numbers: an inclusive maximum. */
  readonly maximum?: number;
  readonly description: string;
}

export const RECORD_TYPE_NAMES = [
  "Registration",
  "RegistrationV2",
  "Snapshot",
  "Decision",
  "DecisionV2",
  "DecisionV3",
  "Trade",
] as const;
export type RecordTypeName = (typeof RECORD_TYPE_NAMES)[number];

/** Agent and season ids: lowercase slugs, 1–64 characters. */
export const ID_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";

/** The declared styles are the scorer's own list (augur-dna/v1). */
export { STYLES };

export const DECISION_ACTIONS = ["buy", "sell", "hold", "exit"] as const;
/** Only `decider` decisions count toward the 5 a score needs. */
export const DECISION_SOURCES = ["decider", "protective-exit", "system-hold"] as const;
export const TRADE_SIDES = ["buy", "sell"] as const;

const agentId: FieldSpec = {
  name: "agentId",
  type: "string",
  pattern: ID_PATTERN,
  maxLength: 64,
  description: "the agent's id",
};
const seasonId: FieldSpec = {
  name: "seasonId",
  type: "string",
  pattern: ID_PATTERN,
  maxLength: 64,
  description: "the season the record belongs to",
};
const time = (name: string, description: string): FieldSpec => ({
  name,
  type: "uint64",
  maximum: Number.MAX_SAFE_INTEGER,
  description: `${description}, unix seconds`,
});

const decisionV1: readonly FieldSpec[] = [
  agentId,
  seasonId,
  time("decidedAt", "when the decision was taken"),
  { name: "asset", type: "address", description: "the stock token decided on" },
  { name: "action", type: "string", enum: DECISION_ACTIONS, description: "what was decided" },
  {
    name: "source",
    type: "string",
    enum: DECISION_SOURCES,
    description: "who decided: the agent's own decider, a protective exit or a system hold",
  },
  {
    name: "confidenceBps",
    type: "uint16",
    maximum: 10000,
    description: "stated probability of being right, basis points",
  },
  { name: "note", type: "string", maxLength: 280, description: "free text, at most 280 characters" },
];

/** A hash that stands for nothing: no note (`noteHash`), no trade named (`DecisionV3`'s `txHash`). */
export const ZERO_HASH = `0x${"0".repeat(64)}`;

const registrationV1: readonly FieldSpec[] = [
  agentId,
  seasonId,
  { name: "creator", type: "address", description: "the creator's address (co-signs the registration)" },
  { name: "agentKey", type: "address", description: "the key that signs every record of this agent" },
  { name: "style", type: "string", enum: STYLES, description: "the declared strategy style" },
  time("registeredAt", "when the registration was signed"),
];

export const RECORD_FIELDS: Readonly<Record<RecordTypeName, readonly FieldSpec[]>> = {
  Registration: registrationV1,
  RegistrationV2: [
    ...registrationV1,
    {
      name: "wallet",
      type: "address",
      description:
        "the account holding the agent's book (an EOA signs the registration too; a contract wallet answers EIP-1271)",
    },
  ],
  Snapshot: [
    agentId,
    seasonId,
    time("takenAt", "when the portfolio was valued"),
    {
      name: "nav",
      type: "uint256",
      description:
        "net asset value in the protocol's USDG unit: 10^-6 USDG (6 decimals, whatever the token's own decimals)",
    },
    {
      name: "flow",
      type: "int256",
      description: "deposits minus withdrawals since the previous snapshot, same unit as nav (10^-6 USDG)",
    },
    {
      name: "investedBps",
      type: "uint16",
      maximum: 10000,
      description: "share of NAV held outside cash, basis points (0–10,000)",
    },
  ],
  Decision: decisionV1,
  DecisionV2: [
    ...decisionV1,
    {
      name: "txHash",
      type: "bytes32",
      description:
        "the transaction that executed this buy or sell (a link only: the engine measures the trade itself from the chain)",
    },
  ],
  DecisionV3: [
    ...decisionV1.filter((f) => f.name !== "note"),
    {
      name: "noteHash",
      type: "bytes32",
      description:
        "sha256(salt ‖ UTF-8 note) of the free-text note, whose text and 32-byte salt are posted beside the record (erasable); all zeros for no note",
    },
    {
      name: "txHash",
      type: "bytes32",
      description:
        "the transaction that executed this buy or sell (a link only); all zeros when no trade is named, always for hold and exit",
    },
  ],
  Trade: [
    agentId,
    seasonId,
    time("executedAt", "when the trade executed"),
    { name: "asset", type: "address", description: "the stock token traded" },
    { name: "side", type: "string", enum: TRADE_SIDES, description: "buy or sell" },
    { name: "quantity", type: "uint256", description: "token amount in the token's base units" },
    { name: "price", type: "uint256", description: "USDG per whole token, 18 decimals" },
    { name: "txHash", type: "bytes32", description: "the transaction that executed the trade" },
  ],
};

/**
 * Lifecycle records: signed by the agent key like the records above, but about the agent rather
 * than its book, so they are stored apart (`agent_retirements`) and never read by a score's inputs.
 * `Retirement`: the agent stops; from `retiredAt` it is no longer one of its creator's active agents.
 */
export const LIFECYCLE_TYPE_NAMES = ["Retirement"] as const;
export type LifecycleTypeName = (typeof LIFECYCLE_TYPE_NAMES)[number];
/** Every EIP-712 type an agent signs. */
export type SignedTypeName = RecordTypeName | LifecycleTypeName;

export const SIGNED_FIELDS: Readonly<Record<SignedTypeName, readonly FieldSpec[]>> = {
  ...RECORD_FIELDS,
  Retirement: [agentId, seasonId, time("retiredAt", "from when the agent is retired")],
};

/** The field holding each record's time. */
export const TIME_FIELD: Readonly<Record<SignedTypeName, string>> = {
  Retirement: "retiredAt",
  Registration: "registeredAt",
  RegistrationV2: "registeredAt",
  Snapshot: "takenAt",
  Decision: "decidedAt",
  DecisionV2: "decidedAt",
  DecisionV3: "decidedAt",
  Trade: "executedAt",
};

/** The record kind each type is stored and scored as (both versions of a kind are one kind). */
export const RECORD_KIND: Readonly<
  Record<RecordTypeName, "registration" | "snapshot" | "decision" | "trade">
> = {
  Registration: "registration",
  RegistrationV2: "registration",
  Snapshot: "snapshot",
  Decision: "decision",
  DecisionV2: "decision",
  DecisionV3: "decision",
  Trade: "trade",
};

/** Both registration versions. */
export function isRegistration(type: RecordTypeName): type is "Registration" | "RegistrationV2" {
  return type === "Registration" || type === "RegistrationV2";
}
