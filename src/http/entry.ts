/**
 * The request as the app may trust it. Bun builds `request.url` from the Host header: an empty
 * or malformed one (`Host:`, `Host: a b`) gives a relative URL that `new URL()` throws on, and
 * a short one (`Host: x`) defeats Elysia's router, which looks for the path from the 11th
 * character on (`http://x/api/health` routed as `/health`). Routing and logging must never
 * depend on what a client writes there, so such a request is rebuilt on a fixed host; the
 * path and query are kept as sent. A well-formed request passes through untouched.
 */
const SAFE_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** Where Elysia starts looking for the path (`http://` plus at least 4 characters). */
const ROUTER_PATH_FROM = 11;
export const FALLBACK_ORIGIN = "http://localhost";

export function withSafeUrl(request: Request): Request {
  const url = request.url;
  const from = url.startsWith("http://") ? 7 : url.startsWith("https://") ? 8 : -1;
  if (from > 0) {
    const pathStart = url.indexOf("/", from);
    if (pathStart >= ROUTER_PATH_FROM && SAFE_HOST.test(url.slice(from, pathStart))) return request;
  }
  return new Request(FALLBACK_ORIGIN + targetOf(url, from), request);
}

/** The path and query of a URL that may be relative or carry a host we refuse. */
function targetOf(url: string, from: number): string {
  if (from < 0) return url.startsWith("/") ? url : `/${url}`;
  const pathStart = url.indexOf("/", from);
  if (pathStart >= 0) return url.slice(pathStart);
  const query = url.indexOf("?", from);
  return query >= 0 ? `/${url.slice(query)}` : "/";
}

/** The path of a request's URL without parsing it (a URL the entry let through parses). */
export function pathOf(request: Request): string {
  const url = request.url;
  const from = url.indexOf("//");
  const start = from >= 0 ? url.indexOf("/", from + 2) : 0;
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}
