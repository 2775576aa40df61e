import { routePathPattern } from "./allowed-methods";
import { type BodyLimit, DEFAULT_BODY_LIMIT, declaredBodyLimit } from "./body";

/**
 * The body limits the app's routes declare (body.ts bodyLimit, in each route's detail), read
 * once from app.routes as known-fields.ts reads their fields.
 */
export interface BodyLimits {
  /** After routing: the limit of the route Elysia matched (its path pattern, `/api/pages/:id`). */
  ofRoute(method: string, route: string): BodyLimit;
  /**
   * Before routing, for a Content-Length check: the largest limit of the routes this method and
   * URL path could reach, so no route is refused what it takes; the default for a path no route
   * answers (it is a 404, but its body must not be held meanwhile); null when a streamed route
   * could take it (that route judges its own length).
   */
  ofRequest(method: string, path: string): BodyLimit | null;
}

interface RouteLike {
  method: string;
  path: string;
  hooks?: unknown;
}

export function bodyLimits(routes: readonly RouteLike[]): BodyLimits {
  const byRoute = new Map<string, BodyLimit>();
  const patterns = new Map<string, Array<{ match: RegExp; limit: BodyLimit }>>();
  for (const route of routes) {
    const limit = declaredBodyLimit(route) ?? DEFAULT_BODY_LIMIT;
    byRoute.set(`${route.method} ${route.path}`, limit);
    if (!patterns.has(route.method)) patterns.set(route.method, []);
    patterns.get(route.method)!.push({ match: routePathPattern(route.path), limit });
  }
  return {
    ofRoute: (method, route) => byRoute.get(`${method} ${route}`) ?? DEFAULT_BODY_LIMIT,
    ofRequest(method, path) {
      let largest: BodyLimit | null = null;
      for (const p of [...(patterns.get(method) ?? []), ...(patterns.get("ALL") ?? [])]) {
        if (!p.match.test(path)) continue;
        if (p.limit.streamed) return null;
        if (!largest || p.limit.limit > largest.limit) largest = p.limit;
      }
      return largest ?? DEFAULT_BODY_LIMIT;
    },
  };
}

/** Whether a route reads its own body as a stream (body.ts bodyLimit with `streamed`). */
export const isStreamedRoute = (route: { hooks?: unknown }): boolean => declaredBodyLimit(route)?.streamed === true;
