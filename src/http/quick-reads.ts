/**
 * Quick reads: the GETs every page load and every reader asks (the signed-in account, a page),
 * answered by the same handler as their Elysia route, without Elysia's request chain around it
 * (its context, router, hooks and the promise its compiled handler always returns: about 4 µs
 * of a ~25 µs answer in-process). The steps are the app's own, in its order (app-shell.ts):
 * the address-block check, the pipeline (caller, limits, rules), the handler, and errors made
 * problem documents by the same function. Anything else (another method, a path the table does
 * not hold, a parameter it would have to decode or check) goes through Elysia as before.
 */

/** What a quick read's handler is given: the part of Elysia's context our handlers use. */
export interface QuickContext {
  request: Request;
  params: Record<string, string>;
  set: { headers: Record<string, string | number>; status?: number | string };
}

export type QuickHandler = (context: QuickContext) => Response;

/** A GET route's path as Elysia has it ("/api/auth/me", "/api/pages/:id") and its handler. */
export interface QuickRead {
  path: string;
  handler: QuickHandler;
}

export interface QuickMatch {
  handler: QuickHandler;
  params: Record<string, string>;
}

/**
 * A parameter taken as it is: letters, digits and dashes (ids), which Elysia passes through
 * undecoded and our Id schema accepts (1 to 100 characters). Anything else goes to Elysia.
 */
const PLAIN_PARAM = /^[A-Za-z0-9-]{1,100}$/;

/**
 * The matcher for these quick reads in an app with these routes. A read is used only if the
 * app has it as a GET route; a pattern's last segment (":id") matches no path that is a route
 * of its own (/api/pages/tree is not the page "tree"), as Elysia's router prefers those.
 */
export function quickReadMatcher(
  reads: readonly QuickRead[],
  routes: ReadonlyArray<{ method: string; path: string }>,
): (path: string) => QuickMatch | null {
  const gets = new Set(routes.filter((r) => r.method === "GET").map((r) => r.path));
  const fixed = new Set(routes.filter((r) => !r.path.includes(":") && !r.path.includes("*")).map((r) => r.path));
  const exact = new Map<string, QuickHandler>();
  const prefixed: Array<{ prefix: string; name: string; handler: QuickHandler }> = [];
  for (const read of reads) {
    if (!gets.has(read.path)) continue;
    const colon = read.path.indexOf(":");
    if (colon < 0) exact.set(read.path, read.handler);
    else if (read.path.lastIndexOf("/") === colon - 1 && !read.path.slice(colon).includes("/")) {
      prefixed.push({ prefix: read.path.slice(0, colon), name: read.path.slice(colon + 1), handler: read.handler });
    }
  }
  if (!exact.size && !prefixed.length) return () => null;
  return (path) => {
    const handler = exact.get(path);
    if (handler) return { handler, params: {} };
    for (const p of prefixed) {
      if (!path.startsWith(p.prefix)) continue;
      const value = path.slice(p.prefix.length);
      if (PLAIN_PARAM.test(value) && !fixed.has(path)) return { handler: p.handler, params: { [p.name]: value } };
    }
    return null;
  };
}
