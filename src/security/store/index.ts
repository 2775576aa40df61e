/**
 * The security domain's store: the only modules that hold the driver for, and write, the tables
 * of security/tables.ts (alerts, address blocks), and its reads of the audit log as security
 * events.
 */
export * from "./alerts";
export * from "./blocks";
export * from "./events";
