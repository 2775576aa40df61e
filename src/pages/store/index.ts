/**
 * The pages store: the only module that holds the driver for pages and their versions,
 * contributors, links and imported authors, and their only writer (docs/architecture.md).
 * rows.ts: look-ups and new versions; links.ts: page_links; sql.ts: the hand-written SQL, all
 * exported here. writes.ts (other row changes), reads.ts and versions.ts (the domain's reads)
 * and import.ts (the import's batches) are imported by path, so that the modules loaded before
 * the server listens (the start-up budget, tests/budgets.ts) do not grow with them.
 */
export * from "./rows";
export * from "./links";
export * from "./sql";
