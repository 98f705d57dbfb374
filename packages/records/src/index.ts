/**
 * @augur/records — the wire protocol: what a record is (fields, EIP-712 types and domain), how it
 * is checked and sealed, the codes a refused record answers with, and how a stored body is read.
 * No I/O: the engine ingests and stores records, the agent SDK signs them, both through this.
 */
export * from "./fields";
export * from "./eip712";
export * from "./validate";
export * from "./sealed";
export * from "./signature";
export * from "./errors";
export * from "./call-terms";
export * from "./bodies";
export * from "./scorer-rules";
export * from "./measured";
export * from "./usdg";
export * from "./erasable";
