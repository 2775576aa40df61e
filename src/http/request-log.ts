import type { Core } from "../core";
import { pathOf } from "./entry";
import { stateOf } from "./request-state";

/**
 * One structured line per request: method, path (never the query, which may carry a token),
 * status, duration and caller id. Never a password, token, cookie or code.
 */
export function logRequest(core: Core, request: Request, status: number): void {
  const state = stateOf(request);
  const caller = state?.caller;
  core.log.info("request", {
    method: request.method,
    path: pathOf(request),
    status,
    durationMs: state ? Math.round((performance.now() - state.start) * 100) / 100 : null,
    callerId: caller?.kind === "user" ? caller.user.id : null,
    via: caller?.kind === "user" ? (caller.token ? "token" : "session") : "anonymous",
  });
}
