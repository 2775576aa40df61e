import type { Core } from "../core";
import { pathOf } from "./entry";
import { stateOf } from "./request-state";

/**
 * One structured line per request, written as the answer leaves (http/app.ts, durableHandler):
 * method, path (never the query, which may carry a token), status, duration and caller id.
 * Never a password, token, cookie or code.
 */
export function logRequest(core: Core, request: Request, status: number, durationMs: number): void {
  const caller = stateOf(request)?.caller;
  core.log.info("request", {
    method: request.method,
    path: pathOf(request),
    status,
    durationMs: Math.round(durationMs * 100) / 100,
    callerId: caller?.kind === "user" ? caller.user.id : null,
    via: caller?.kind === "user" ? (caller.token ? "token" : "session") : "anonymous",
  });
}
