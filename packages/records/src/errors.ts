import { AugurError } from "@augur/scorer";

/** A submitted record the engine refuses; `status` is the HTTP status it answers with. */
export class RecordRefusedError extends AugurError {
  override readonly name: string = "RecordRefusedError";
  readonly status: number;
  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.status = status;
  }
}

export class BadSignatureError extends RecordRefusedError {
  override readonly name = "BadSignatureError";
  constructor(field: string, problem: string) {
    super(401, "BAD_SIGNATURE", `${field}: ${problem}`, { field });
  }
}

export class WrongSignerError extends RecordRefusedError {
  override readonly name = "WrongSignerError";
  constructor(field: string, expected: string, recovered: string) {
    super(403, "WRONG_SIGNER", `${field} was made by ${recovered}, not by ${expected}`, {
      field,
      expected,
      recovered,
    });
  }
}

export class UnknownAgentError extends RecordRefusedError {
  override readonly name = "UnknownAgentError";
  constructor(agentId: string, seasonId: string) {
    super(404, "UNKNOWN_AGENT", `agent ${agentId} is not registered in season ${seasonId}`, {
      agentId,
      seasonId,
    });
  }
}

export class UnknownSeasonError extends RecordRefusedError {
  override readonly name = "UnknownSeasonError";
  constructor(seasonId: string) {
    super(404, "UNKNOWN_SEASON", `season ${seasonId} does not exist`, { seasonId });
  }
}

export class SeasonClosedError extends RecordRefusedError {
  override readonly name = "SeasonClosedError";
  constructor(seasonId: string, closedAt: number) {
    super(409, "SEASON_CLOSED", `season ${seasonId} closed at ${closedAt}`, { seasonId, closedAt });
  }
}

export class AgentExistsError extends RecordRefusedError {
  override readonly name = "AgentExistsError";
  constructor(agentId: string, seasonId: string) {
    super(409, "AGENT_EXISTS", `agent ${agentId} is already registered in season ${seasonId}`, {
      agentId,
      seasonId,
    });
  }
}

export class AgentKeyInUseError extends RecordRefusedError {
  override readonly name = "AgentKeyInUseError";
  constructor(agentKey: string, seasonId: string, agentId: string) {
    super(
      409,
      "AGENT_KEY_IN_USE",
      `key ${agentKey} already signs for agent ${agentId} in season ${seasonId}`,
      {
        agentKey,
        seasonId,
        agentId,
      },
    );
  }
}

export class RecordOutOfSeasonError extends RecordRefusedError {
  override readonly name = "RecordOutOfSeasonError";
  constructor(field: string, value: number, from: number, to: number) {
    super(422, "OUT_OF_SEASON", `message.${field} ${value} is outside [${from}, ${to}]`, {
      field,
      value,
      from,
      to,
    });
  }
}

/** A record dated more than the grace before it arrived: agents report now, not the past. */
export class StaleRecordError extends RecordRefusedError {
  override readonly name = "StaleRecordError";
  constructor(field: string, value: number, receivedAt: number, graceSeconds: number) {
    super(
      422,
      "STALE_RECORD",
      `message.${field} ${value} is more than ${graceSeconds} s before its arrival at ${receivedAt}`,
      { field, value, receivedAt, graceSeconds },
    );
  }
}

/** A record dated before its agent's registration: an agent's history starts when it registers. */
export class BeforeRegistrationError extends RecordRefusedError {
  override readonly name = "BeforeRegistrationError";
  constructor(field: string, value: number, registeredAt: number) {
    super(
      422,
      "BEFORE_REGISTRATION",
      `message.${field} ${value} is before the agent's registration at ${registeredAt}`,
      { field, value, registeredAt },
    );
  }
}

/** A second, different record of an agent for the same kind and moment. */
export class EquivocationError extends RecordRefusedError {
  override readonly name = "EquivocationError";
  constructor(kind: string, field: string, value: number, existing: string) {
    super(
      409,
      "EQUIVOCATION",
      `a different ${kind} of this agent at message.${field} ${value} is already sealed as ${existing}`,
      { kind, field, value, existing },
    );
  }
}

export class WalletInUseError extends RecordRefusedError {
  override readonly name = "WalletInUseError";
  constructor(wallet: string, seasonId: string, agentId: string) {
    super(
      409,
      "WALLET_IN_USE",
      `wallet ${wallet} already holds the book of agent ${agentId} in season ${seasonId}`,
      {
        wallet,
        seasonId,
        agentId,
      },
    );
  }
}

export class WalletNotProvenError extends RecordRefusedError {
  override readonly name = "WalletNotProvenError";
  constructor(wallet: string, recovered: string) {
    super(
      403,
      "WALLET_NOT_PROVEN",
      `walletSignature was made by ${recovered}, and wallet ${wallet} did not accept it through EIP-1271`,
      { wallet, recovered },
    );
  }
}

export class WalletRequiredError extends RecordRefusedError {
  override readonly name = "WalletRequiredError";
  constructor(seasonId: string) {
    super(
      422,
      "WALLET_REQUIRED",
      `season ${seasonId} measures portfolios from the chain: register with a RegistrationV2 that binds your wallet`,
      { seasonId },
    );
  }
}

/** Snapshots and trades of a measured season come from the chain, never from the agent. */
export class MeasuredByEngineError extends RecordRefusedError {
  override readonly name = "MeasuredByEngineError";
  constructor(type: string, seasonId: string) {
    super(
      409,
      "MEASURED_BY_ENGINE",
      `${type} records are now measured by the engine from the agent's wallet in season ${seasonId}; agents no longer post them`,
      { type, seasonId },
    );
  }
}

export class AgentRetiredError extends RecordRefusedError {
  override readonly name = "AgentRetiredError";
  constructor(agentId: string, seasonId: string, retiredAt: number) {
    super(
      409,
      "AGENT_RETIRED",
      `agent ${agentId} was already retired in season ${seasonId} at ${retiredAt}`,
      {
        agentId,
        seasonId,
        retiredAt,
      },
    );
  }
}
