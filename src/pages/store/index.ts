/**
 * The pages store: the only module that holds the driver for pages and their versions,
 * contributors, links and imported authors, and their only writer (docs/architecture.md).
 * rows.ts: look-ups and new versions; writes.ts: other row changes; reads.ts and versions.ts:
 * the domain's reads; links.ts: page_links; import.ts: the import's batches; sql.ts: the
 * hand-written SQL.
 */
export * from "./rows";
export * from "./writes";
export * from "./reads";
export * from "./versions";
export * from "./links";
export * from "./sql";
export * from "./import";
