/**
 * The methods a path answers to, from the app's own routes, so that a wrong method on an
 * existing path is a 405 with Allow (the error catalogue's `method_not_allowed`) instead of a
 * 404 that suggests the path is wrong.
 */
export type MethodsOf = (path: string) => string[];

/** What URL paths a route's path (`/api/pages/:id`) answers; a trailing slash is optional, as in Elysia. */
export function routePathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+").replace(/\*/g, ".*").replace(/\/$/, "")}/?$`);
}

export function methodsByPath(routes: ReadonlyArray<{ method: string; path: string }>): MethodsOf {
  const patterns = routes.filter((r) => r.method !== "ALL" && r.path !== "*").map((r) => ({ method: r.method, match: routePathPattern(r.path) }));
  return (path) => {
    const methods = new Set(patterns.filter((p) => p.match.test(path)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}
