import { AppError } from "../platform/errors";

/**
 * 400 import_refused on the `file` field: the archive or something in it cannot come in, and
 * nothing was written. `path` names the entry or page at fault ("pages/00012.json").
 */
export function importRefused(reason: string, path?: string): AppError {
  const detail = path ? `${path}: ${reason}` : reason;
  return new AppError("import_refused", { field: "file", detail, errors: { file: [detail] } });
}
