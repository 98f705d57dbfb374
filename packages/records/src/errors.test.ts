import { expect } from "chai";
import * as errors from "./errors";

// Every refusal the engine answers with: HTTP status, code, message and details, pinned (the API,
// the SDK and the site show them as they are).
const cases: [string, () => errors.RecordRefusedError, Record<string, unknown>][] = [
  [
    "RecordRefusedError",
    () => new errors.RecordRefusedError(418, "TEAPOT", "short", { a: 1 }),
    { name: "RecordRefusedError", status: 418, code: "TEAPOT", message: "short", details: { a: 1 } },
  ],
  [
    "BadSignatureError",
    () => new errors.BadSignatureError("signature", "is bad"),
    {
      name: "BadSignatureError",
      status: 401,
      code: "BAD_SIGNATURE",
      message: "signature: is bad",
      details: { field: "signature" },
    },
  ],
  [
    "WrongSignerError",
    () => new errors.WrongSignerError("signature", "0xaa", "0xbb"),
    {
      name: "WrongSignerError",
      status: 403,
      code: "WRONG_SIGNER",
      message: "signature was made by 0xbb, not by 0xaa",
      details: { field: "signature", expected: "0xaa", recovered: "0xbb" },
    },
  ],
  [
    "UnknownAgentError",
    () => new errors.UnknownAgentError("ada", "s1"),
    {
      name: "UnknownAgentError",
      status: 404,
      code: "UNKNOWN_AGENT",
      message: "agent ada is not registered in season s1",
      details: { agentId: "ada", seasonId: "s1" },
    },
  ],
  [
    "UnknownSeasonError",
    () => new errors.UnknownSeasonError("s1"),
    {
      name: "UnknownSeasonError",
      status: 404,
      code: "UNKNOWN_SEASON",
      message: "season s1 does not exist",
      details: { seasonId: "s1" },
    },
  ],
  [
    "SeasonClosedError",
    () => new errors.SeasonClosedError("s1", 1700),
    {
      name: "SeasonClosedError",
      status: 409,
      code: "SEASON_CLOSED",
      message: "season s1 closed at 1700",
      details: { seasonId: "s1", closedAt: 1700 },
    },
  ],
  [
    "AgentExistsError",
    () => new errors.AgentExistsError("ada", "s1"),
    {
      name: "AgentExistsError",
      status: 409,
      code: "AGENT_EXISTS",
      message: "agent ada is already registered in season s1",
      details: { agentId: "ada", seasonId: "s1" },
    },
  ],
  [
    "AgentKeyInUseError",
    () => new errors.AgentKeyInUseError("0xkk", "s1", "ada"),
    {
      name: "AgentKeyInUseError",
      status: 409,
      code: "AGENT_KEY_IN_USE",
      message: "key 0xkk already signs for agent ada in season s1",
      details: { agentKey: "0xkk", seasonId: "s1", agentId: "ada" },
    },
  ],
  [
    "RecordOutOfSeasonError",
    () => new errors.RecordOutOfSeasonError("takenAt", 5, 10, 20),
    {
      name: "RecordOutOfSeasonError",
      status: 422,
      code: "OUT_OF_SEASON",
      message: "message.takenAt 5 is outside [10, 20]",
      details: { field: "takenAt", value: 5, from: 10, to: 20 },
    },
  ],
  [
    "StaleRecordError",
    () => new errors.StaleRecordError("takenAt", 5, 900, 600),
    {
      name: "StaleRecordError",
      status: 422,
      code: "STALE_RECORD",
      message: "message.takenAt 5 is more than 600 s before its arrival at 900",
      details: { field: "takenAt", value: 5, receivedAt: 900, graceSeconds: 600 },
    },
  ],
  [
    "BeforeRegistrationError",
    () => new errors.BeforeRegistrationError("takenAt", 5, 10),
    {
      name: "BeforeRegistrationError",
      status: 422,
      code: "BEFORE_REGISTRATION",
      message: "message.takenAt 5 is before the agent's registration at 10",
      details: { field: "takenAt", value: 5, registeredAt: 10 },
    },
  ],
  [
    "EquivocationError",
    () => new errors.EquivocationError("Snapshot", "takenAt", 5, "0xseal"),
    {
      name: "EquivocationError",
      status: 409,
      code: "EQUIVOCATION",
      message: "a different Snapshot of this agent at message.takenAt 5 is already sealed as 0xseal",
      details: { kind: "Snapshot", field: "takenAt", value: 5, existing: "0xseal" },
    },
  ],
  [
    "WalletInUseError",
    () => new errors.WalletInUseError("0xww", "s1", "ada"),
    {
      name: "WalletInUseError",
      status: 409,
      code: "WALLET_IN_USE",
      message: "wallet 0xww already holds the book of agent ada in season s1",
      details: { wallet: "0xww", seasonId: "s1", agentId: "ada" },
    },
  ],
  [
    "WalletNotProvenError",
    () => new errors.WalletNotProvenError("0xww", "0xrr"),
    {
      name: "WalletNotProvenError",
      status: 403,
      code: "WALLET_NOT_PROVEN",
      message: "walletSignature was made by 0xrr, and wallet 0xww did not accept it through EIP-1271",
      details: { wallet: "0xww", recovered: "0xrr" },
    },
  ],
  [
    "WalletRequiredError",
    () => new errors.WalletRequiredError("s1"),
    {
      name: "WalletRequiredError",
      status: 422,
      code: "WALLET_REQUIRED",
      message:
        "season s1 measures portfolios from the chain: register with a RegistrationV2 that binds your wallet",
      details: { seasonId: "s1" },
    },
  ],
  [
    "MeasuredByEngineError",
    () => new errors.MeasuredByEngineError("Snapshot", "s1"),
    {
      name: "MeasuredByEngineError",
      status: 409,
      code: "MEASURED_BY_ENGINE",
      message:
        "Snapshot records are now measured by the engine from the agent's wallet in season s1; agents no longer post them",
      details: { type: "Snapshot", seasonId: "s1" },
    },
  ],
  [
    "AgentRetiredError",
    () => new errors.AgentRetiredError("ada", "s1", 1800),
    {
      name: "AgentRetiredError",
      status: 409,
      code: "AGENT_RETIRED",
      message: "agent ada was already retired in season s1 at 1800",
      details: { agentId: "ada", seasonId: "s1", retiredAt: 1800 },
    },
  ],
];

describe("@augur/records: refusal errors", () => {
  for (const [name, make, expected] of cases) {
    it(`${name} answers ${String(expected.status)} ${String(expected.code)} with its message and details`, () => {
      const error = make();
      expect(error).to.be.instanceOf(errors.RecordRefusedError);
      const { name: got, status, code, message, details } = error;
      expect({ name: got, status, code, message, details }).to.deep.equal(expected);
    });
  }

  it("covers every error class the module exports", () => {
    expect(Object.keys(errors).sort()).to.deep.equal(cases.map(([name]) => name).sort());
  });
});
