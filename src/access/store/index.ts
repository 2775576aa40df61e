/**
 * The access domain's store: the only modules that hold the driver for, and write, the tables of
 * access/tables.ts (space grants, page restrictions, invite grants), and the set-based reads the
 * permission rules ask (reads.ts).
 */
export * from "./grants";
export * from "./reads";
export * from "./restrictions";
