/**
 * HTTP caching of GET /api/pages/{id}. Anonymous reads (public spaces) are cacheable by anyone,
 * but always revalidated: the ETag is the page id, version and last change, so an unchanged
 * page answers 304 without its body, while access is checked again on every request (a page
 * made private stops answering at once). Signed-in reads carry what only that caller may see
 * (canEdit, drafts, restricted pages): private and never stored.
 */
import type { Caller } from "../identity/caller";
import { SECURITY_HEADERS } from "../platform/security-headers";
import type { PageMeta } from "./tables";

export function pageEtag(page: Pick<PageMeta, "id" | "currentVersion" | "updatedAt">): string {
  return `"${page.id}.${page.currentVersion}.${Date.parse(page.updatedAt)}"`;
}

function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === etag || tag === "*";
  });
}

/** Headers for the answer, and a 304 Response when the anonymous caller's copy is current. */
export function cachedPageAnswer(
  request: Request,
  caller: Caller,
  page: PageMeta,
  headers: Record<string, string | number>,
): Response | null {
  headers.vary = "Authorization, Cookie";
  if (caller.kind === "user") {
    headers["cache-control"] = "private, no-store";
    return null;
  }
  const etag = pageEtag(page);
  headers["cache-control"] = "public, no-cache";
  headers.etag = etag;
  if (!matches(request.headers.get("if-none-match"), etag)) return null;
  return new Response(null, {
    status: 304,
    headers: { ...SECURITY_HEADERS, etag, "cache-control": "public, no-cache", vary: "Authorization, Cookie" },
  });
}
