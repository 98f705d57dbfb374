export * from "./snapshot";
export * from "./trades";
