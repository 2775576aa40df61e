/**
 * The 409 version_conflict of PUT /api/pages/{id} (docs/api.md, "Versions and conflicts"). It
 * is a problem document like every other error (title = the catalogue's, code, a detail saying what
 * to do) that also carries the page as it now is, twice over:
 * - `current`: the whole page, the one place a new client reads it from;
 * - the page's fields at the top level, as before, so scripts that retry from the body itself
 *   (docs/api.md, "Errors are problem documents") keep working. Two of them cannot
 *   stay there: `title` is the problem's and `status` the HTTP status, so the page's status is
 *   also sent as `pageStatus`, and its title is in `current.title`.
 */
import { AppError, ERROR_CODES } from "../platform/errors";
import type { Page } from "./answer";

export function versionConflict(current: Page, sentBase: number): AppError {
  const now = current.currentVersionNumber;
  const detail =
    `The page is at version ${now}; you sent baseVersion ${sentBase}. Reload it (the page as it now is is in \`current\`), ` +
    `merge your changes into it, then send them again with baseVersion ${now}.`;
  // problemResponse (src/http/problem.ts) sends extras.body as it is, adding status and code.
  const body = { ...current, pageStatus: current.status, current, title: ERROR_CODES.version_conflict.title, detail };
  return new AppError("version_conflict", { detail, body });
}
