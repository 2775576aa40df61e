const MB = 1024 * 1024;

/** The largest archive an import reads (413 while it streams past it). */
export const IMPORT_MAX_BYTES = 500 * MB;
export const IMPORT_LIMIT_WHY = `Imported archives may be at most ${IMPORT_MAX_BYTES / MB} MB.`;
