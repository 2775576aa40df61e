import { anonymous, type Caller } from "../identity/caller";
import { limiters } from "../auth/limits";
import { findSession, SESSION_COOKIE } from "../auth/sessions";
import { maintenanceRefusal, type Core } from "../core";
import { AppError, invalid } from "../platform/errors";
import { getSettings } from "../settings/service";
import { authenticateToken } from "../tokens/service";
import { tokenActivity } from "../tokens/admin-activity";
import { type BodyLimit, checkDepth, readBodyText, tooLarge } from "./body";
import type { BodyLimits } from "./body-limits";
import type { ClientInfo } from "./client";
import { readCookie } from "./cookies";
import { pathOf } from "./entry";
import { setState } from "./request-state";

export const SERVICE_NAME = "Cairn";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * Writes that stay open in maintenance: stopping the restore that turned it on, and the
 * restore's own requests (another restore, undo, discard-kept), which answer 409
 * restore_running before writing anything.
 */
const MAINTENANCE_OPEN = /^\/api\/admin\/backups\/(restore\/(cancel|undo|discard-kept)|[^/]+\/restore)$/;

/** A signed-in caller's address is read from the socket only if something asks (http/client.ts). */
function resolveCaller(core: Core, request: Request, client: ClientInfo): Caller {
  const authz = request.headers.get("authorization");
  if (authz !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authz.trim());
    const found = authenticateToken(core, match?.[1] ?? "");
    tokenActivity(core).record(found.token.id, client);
    return {
      kind: "user",
      get ip() {
        return client.ip;
      },
      user: found.user,
      role: found.role,
      permissions: found.permissions,
      session: null,
      token: found.token,
    };
  }
  const cookie = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (cookie) {
    const found = findSession(core, cookie);
    if (found && found.user.status === 0) {
      return {
        kind: "user",
        get ip() {
          return client.ip;
        },
        user: found.user,
        role: found.role,
        permissions: new Set(found.role.permissions),
        session: found.session,
        token: null,
      };
    }
  }
  return anonymous(client.ip);
}

/**
 * Runs before routing, for every request:
 * 1. refuse a declared body over the limit of the route it is for (413) before reading it;
 * 2. resolve the caller: a bad bearer token is a 401, never anonymous;
 * 3. rate-limit requests with no token and no session (429 + Retry-After);
 * 4. a read-only token may only read (403 read_only_token);
 * 5. a request that changes data without a token must send X-Requested-With: Cairn, so a
 *    page on another site cannot make a signed-in browser act (403);
 * 6. in maintenance (a restore under way) a request that changes data answers 503.
 */
export function runPipeline(core: Core, request: Request, client: ClientInfo, limits: BodyLimits): Caller {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > 0) {
    const limit = limits.ofRequest(request.method, pathOf(request));
    if (limit && length > limit.limit) throw tooLarge(limit);
  }

  const caller = resolveCaller(core, request, client);
  setState(request, { caller });

  if (caller.kind === "anonymous") {
    const hit = limiters(core).anonymous.hit(`anon:${caller.ip}`, getSettings(core).anonymousRateLimitPerMinute);
    if (!hit.ok)
      throw new AppError("rate_limited", {
        headers: { "Retry-After": String(hit.retryAfterSeconds) },
        extra: { retryAfter: hit.retryAfterSeconds },
      });
  }

  if (!SAFE_METHODS.has(request.method)) {
    if (caller.kind === "user" && caller.token) {
      if (caller.token.readOnly) throw new AppError("read_only_token");
    } else if (request.headers.get("x-requested-with") !== SERVICE_NAME) {
      throw new AppError("csrf_header_missing");
    }
    // A restore is replacing the data: writes wait (503 + Retry-After), reads go on. Its own
    // requests stay open (cancel; the others answer 409 restore_running).
    if (core.maintenance.active() && !MAINTENANCE_OPEN.test(pathOf(request))) throw maintenanceRefusal(core.maintenance);
  }
  return caller;
}

/** What the body of a streamed route parses to: nothing (the route reads request.body). */
export const UNREAD_BODY = Object.freeze({});

/**
 * JSON bodies only (415 otherwise); an empty body is an empty object so that endpoints with
 * only optional fields accept a bare POST. Read within the matched route's limit, and no
 * deeper than any of our bodies can be. A streamed route (uploads) reads its own body: it is
 * left unread, since Elysia runs the app's parse hook before any route's own and a route
 * option cannot skip it; such routes check their content type themselves.
 */
export async function parseJsonBody(request: Request, contentType: string, limit: BodyLimit): Promise<unknown> {
  if (limit.streamed) return UNREAD_BODY;
  const text = await readBodyText(request, limit);
  if (!contentType) {
    if (text.trim() === "") return {};
    throw new AppError("unsupported_media_type", { detail: "Send the body as JSON with Content-Type: application/json." });
  }
  if (!/^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
    throw new AppError("unsupported_media_type", {
      detail:
        `Content-Type ${contentType.split(";")[0].slice(0, 100)} is not accepted ` + `here; send JSON with Content-Type: application/json.`,
    });
  }
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid("body", "is not valid JSON");
  }
  checkDepth(body);
  return body;
}
