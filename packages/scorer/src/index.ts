export * from "./errors";
export * from "./hex";
export * from "./seal";
export * from "./merkle";
export * from "./augur";
