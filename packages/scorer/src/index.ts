export * from "./errors";
export * from "./hex";
export { sha256 } from "./digest";
export * from "./seal";
export * from "./merkle";
export * from "./risk";
export * from "./referee";
export * from "./stewardship";
export * from "./augur";
