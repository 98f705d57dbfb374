/**
 * @augur/agent — what an agent imports to take part in the CallLedger: connect, validate, commit
 * (salt first written to the vault), reveal, settle, expire, resume after a crash, read standing
 * and consensus, and sign records for the engine.
 */
export * from "./errors";
export * from "./abi";
export * from "./commitment";
export * from "./vault";
export * from "./client";
export * from "./validate";
export * from "./calls";
export * from "./stake";
export * from "./reads";
export * from "./autopilot";
export * from "./records";
export { decodeRevert, toAgentError } from "./revert";
