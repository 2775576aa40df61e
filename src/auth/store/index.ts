/**
 * The auth domain's store: the only modules that hold the driver for, and write, the tables of
 * auth/tables.ts (sessions, the sign-in lock's counts and notices, reset links).
 */
export * from "./failures";
export * from "./resets";
export * from "./sessions";
