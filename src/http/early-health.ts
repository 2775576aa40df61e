import type { Core } from "../core";
import { AppError } from "../platform/errors";
import { databaseProbe } from "../platform/db/open";
import { securedHeaders, withSecurityHeaders } from "../platform/security-headers";
import { refuseBlockedAddress } from "../security/blocks";
import { trustedProxiesOf } from "../settings/service";
import { bodyLimits } from "./body-limits";
import { identifyClient, type SocketAddress } from "./client";
import { pathOf, withSafeUrl } from "./entry";
import { runPipeline } from "./pipeline";
import { problemResponse } from "./problem";
import { logRequest } from "./request-log";

export const HEALTH_PATH = "/api/health";

/**
 * GET (and HEAD) /api/health before the HTTP application exists. The server listens before it
 * evaluates Elysia and its schema library (~750 KB of code, most of a cold start's CPU after the
 * database), and the first request of nearly every start is a health check: this answers it
 * with what the application would (system/routes.ts), through the same request pipeline
 * (blocked addresses, the caller, the anonymous rate limit), security headers and log line.
 * Answers null when it does not answer (another path or method, the database not answering):
 * the request then waits for the application.
 */
export function earlyHealth(core: Core): (incoming: Request, socketIp: SocketAddress) => Response | null {
  const databaseAnswers = databaseProbe(core);
  const healthy = {
    anonymous: JSON.stringify({ status: "ok", database: "ok" }),
    signedIn: JSON.stringify({ status: "ok", database: "ok", version: core.version }),
  };
  const limits = bodyLimits([]);
  return (incoming, socketIp) => {
    const method = incoming.method;
    if ((method !== "GET" && method !== "HEAD") || pathOf(incoming) !== HEALTH_PATH) return null;
    const start = performance.now();
    let request = withSafeUrl(incoming);
    if (method === "HEAD") request = new Request(request.url, { method: "GET", headers: request.headers });
    // The unhealthy answer (503) is the application's to give.
    try {
      if (!databaseAnswers()) return null;
    } catch {
      return null;
    }
    const client = identifyClient(request, socketIp, trustedProxiesOf(core));
    let response: Response;
    try {
      refuseBlockedAddress(core, client);
      const caller = runPipeline(core, request, client, limits);
      response = new Response(caller.kind === "user" ? healthy.signedIn : healthy.anonymous, {
        headers: securedHeaders("application/json"),
      });
    } catch (err) {
      if (!(err instanceof AppError))
        core.log.error("unhandled error", { path: HEALTH_PATH, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      response = problemResponse(err instanceof AppError ? err : new AppError("internal_error"));
    }
    response = withSecurityHeaders(response, client.https);
    try {
      logRequest(core, request, response.status, performance.now() - start);
    } catch (err) {
      core.log.error("request log failed", { error: err instanceof Error ? err.message : String(err) });
    }
    return method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
  };
}
