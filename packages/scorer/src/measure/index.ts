export * from "./snapshot";
