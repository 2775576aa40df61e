/**
 * The users domain's store: the only modules that hold the driver for, and write, the tables of
 * users/tables.ts (accounts, roles, invites). Everything else calls these named functions.
 */
export * from "./accounts";
export * from "./invites";
export * from "./roles";
