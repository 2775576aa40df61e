import { AppError } from "../platform/errors";

/**
 * The methods a path answers to, from the app's own routes, so that a wrong method on an
 * existing path is a 405 with Allow (the error catalogue's `method_not_allowed`) instead of a
 * 404 that suggests the path is wrong.
 */
export type MethodsOf = (path: string) => string[];

/** What URL paths a route's path (`/api/pages/:id`) answers; a trailing slash is optional, as in Elysia. */
export function routePathPattern(path: string): RegExp {
  return new RegExp(
    `^${path
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/:[^/]+/g, "[^/]+")
      .replace(/\*/g, ".*")
      .replace(/\/$/, "")}/?$`,
  );
}

export function methodsByPath(routes: ReadonlyArray<{ method: string; path: string }>): MethodsOf {
  const patterns = routes
    .filter((r) => r.method !== "ALL" && r.path !== "*")
    .map((r) => ({ method: r.method, match: routePathPattern(r.path) }));
  return (path) => {
    const methods = new Set(patterns.filter((p) => p.match.test(path)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}

/** Every method some route answers, with HEAD (GET's) and OPTIONS. */
export function methodsInUse(routes: ReadonlyArray<{ method: string }>): ReadonlySet<string> {
  return new Set(["HEAD", "OPTIONS", ...routes.map((r) => r.method).filter((m) => m !== "ALL")]);
}

/**
 * A method no route of the app answers (TRACE, PROPFIND, PURGE, QUERY…: the ones Bun's parser
 * knows and passes on) is a 405 naming what the path does answer, before anything else looks
 * at the request (so it is not a 403 for a missing CSRF header on a method that could never
 * change anything). A path that answers nothing stays a 404. Methods Bun does not know are
 * refused by Bun itself before this code runs (docs/decisions.md, HTTP).
 */
export function unusedMethod(method: string, path: string, inUse: ReadonlySet<string>, methodsOf: MethodsOf): AppError | null {
  if (inUse.has(method)) return null;
  const allow = methodsOf(path);
  if (!allow.length) return new AppError("not_found", { detail: `No endpoint ${path.slice(0, 200)}` });
  return new AppError("method_not_allowed", {
    detail: `${path.slice(0, 200)} answers ${allow.join(", ")}, not ${method.slice(0, 20)}.`,
    headers: { Allow: allow.join(", ") },
  });
}
