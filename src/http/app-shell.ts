import { Elysia, type AnyElysia } from "elysia";
import type { Core } from "../core";
import { AppError, errorCode } from "../platform/errors";
import { refuseBlockedAddress } from "../security/blocks";
import { trustedProxiesOf } from "../settings/service";
import { isUiPath, uiResponse } from "./ui";
import { imageSources } from "../content/image-hosts";
import { getSettings } from "../settings/service";
import { clientOf, identifyClient, type SocketAddress } from "./client";
import { pathOf, withSafeUrl } from "./entry";
import { methodsByPath, methodsInUse, type MethodsOf, unusedMethod } from "./allowed-methods";
import { checkKnownFields, knownFields, type KnownFields } from "./known-fields";
import { bodyLimits, isStreamedRoute, type BodyLimits } from "./body-limits";
import { parseJsonBody, runPipeline } from "./pipeline";
import { fromValidation, problemResponse } from "./problem";
import { logRequest } from "./request-log";
import { stateOf } from "./request-state";
import { withSecurityHeaders } from "../platform/security-headers";
import { quickReadMatcher, type QuickMatch, type QuickRead } from "./quick-reads";

/**
 * The HTTP application around the given route groups (app.ts: all of them; first-routes.ts: the
 * ones a start needs). Knows how requests become service calls and errors become problem
 * documents; the rules themselves live in the domain services.
 */
export function composeApp(
  core: Core,
  groups: ReadonlyArray<AnyElysia>,
  opts: { composeStreamedLater?: boolean; quickReads?: readonly QuickRead[] } = {},
) {
  let known: KnownFields = new Map();
  let methodsOf: MethodsOf = () => [];
  let inUse: ReadonlySet<string> = new Set();
  let limits: BodyLimits = bodyLimits([]);
  const app = new Elysia()
    // Only what every request needs runs for every request: the security headers are added where
    // the answer leaves (durableHandler), the request is logged there too, and the body's known
    // fields are checked with its parsing (a global transform or after-response hook costs every
    // GET a turn of the microtask queue, and the latter a setImmediate).
    .onRequest(({ request }) => {
      const client = clientOf(request);
      // A blocked address is refused before anything else is looked at (security/blocks.ts).
      refuseBlockedAddress(core, client);
      if (!inUse.has(request.method)) {
        const unused = unusedMethod(request.method, pathOf(request), inUse, methodsOf);
        if (unused) throw unused;
      }
      runPipeline(core, request, client, limits);
    })
    .onParse(async ({ request, contentType, route }) => {
      const body = await parseJsonBody(request, contentType, limits.ofRoute(request.method, route));
      checkKnownFields(known, request.method, route, body);
      return body;
    })
    .onError(({ code, error, request }) => {
      // The web UI's own paths (/s/DOCS/p/…, /login) are no route here: the app answers them.
      if (code === "NOT_FOUND" && request.method === "GET" && isUiPath(pathOf(request))) return uiAnswer(core, request);
      return toErrorResponse(core, code, error, request, methodsOf);
    });
  for (const group of groups) app.use(group);
  known = knownFields(app.routes);
  methodsOf = methodsByPath(app.routes);
  inUse = methodsInUse(app.routes);
  limits = bodyLimits(app.routes);
  if (!opts.composeStreamedLater) composeStreamedRoutes(app);
  const match = quickReadMatcher(opts.quickReads ?? [], app.routes);
  // The onRequest hook's steps above, then the route's own handler (quick-reads.ts).
  quickAnswers.set(app, (request, found) => {
    try {
      const client = clientOf(request);
      refuseBlockedAddress(core, client);
      runPipeline(core, request, client, limits);
      return found.handler({ request, params: found.params, set: { headers: {} } });
    } catch (error) {
      return toErrorResponse(core, "UNKNOWN", error, request, methodsOf);
    }
  });
  quickMatchers.set(app, match);
  return app;
}

type QuickAnswer = (request: Request, found: QuickMatch) => Response;
const quickAnswers = new WeakMap<object, QuickAnswer>();
const quickMatchers = new WeakMap<object, (path: string) => QuickMatch | null>();

/**
 * Elysia composes a route's handler at its first request, and meanwhile Bun reads a body ahead
 * with no backpressure: the first 20 MB upload after start took ~7 MB more memory than the next
 * ones. So the streamed routes are composed ahead of their first request (all routes would add
 * ~150 ms to the start and ~20 MB of memory); the server does it just after it listens, so the
 * start does not wait for it (server.ts).
 */
export function composeStreamedRoutes(app: { routes: ReadonlyArray<{ hooks?: unknown; compile(): unknown }> }): void {
  for (const route of app.routes) if (isStreamedRoute(route)) route.compile();
}

export type App = ReturnType<typeof composeApp>;

/** The server's entry: a request and the address of the socket it came on (none in-process). */
export type RequestHandler = (request: Request, socketIp?: SocketAddress) => Response | Promise<Response>;

/**
 * The server's request handler. The request is first made safe to route (entry.ts) and its
 * client identified (client.ts); HEAD is answered as GET without the body. The app's answer
 * is sent once what the request wrote (or read from writes not yet committed) is durable.
 * Group commit (platform/db/transactions.ts) holds a turn's writes in one transaction; if its
 * COMMIT fails, every answer that waited on it becomes a 503 rather than a success that was
 * never saved.
 */
export function durableHandler(core: Core, app: App): RequestHandler {
  const quickMatch = quickMatchers.get(app) ?? (() => null);
  const quickAnswer = quickAnswers.get(app)!;
  const finish = async (
    request: Request,
    pending: Response | Promise<Response>,
    failures: number,
    https: boolean,
    head: boolean,
    start: number,
  ) => {
    let response = await pending;
    if (core.commits.pending()) await core.commits.durable();
    return leave(request, response, failures, https, head, start);
  };
  const leave = (request: Request, answer: Response, failures: number, https: boolean, head: boolean, start: number) => {
    let response = answer;
    if (core.commits.failures() !== failures) {
      response = problemResponse(
        new AppError("service_unavailable", {
          detail:
            "The change could not be saved: the database refused to commit it. Try again; if it " +
            "keeps failing, check the server's free disk space and its log.",
        }),
      );
    }
    response = withSecurityHeaders(response, https);
    // The answer is ready to leave: logged now, with the status it leaves with. Nothing here may
    // throw (the answer is made).
    contain(core, "request log", () => logRequest(core, request, response.status, performance.now() - start));
    return head ? withoutBody(response) : response;
  };
  return (incoming, socketIp = null) => {
    const start = performance.now();
    let request = withSafeUrl(incoming);
    const head = request.method === "HEAD";
    if (head) request = new Request(request.url, { method: "GET", headers: request.headers });
    const client = identifyClient(request, socketIp, trustedProxiesOf(core));
    const failures = core.commits.failures();
    // A quick read answers in this synchronous run (quick-reads.ts); it still waits, as every
    // answer does, for writes it may have read that are not yet durable.
    const found = !head && request.method === "GET" ? quickMatch(pathOf(request)) : null;
    if (found) {
      const response = quickAnswer(request, found);
      if (!core.commits.pending()) return leave(request, response, failures, client.https, head, start);
      return finish(request, response, failures, client.https, head, start);
    }
    return finish(request, app.handle(request), failures, client.https, head, start);
  };
}

function withoutBody(response: Response): Response {
  response.body?.cancel().catch(() => {});
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The UI's page or file for a GET no API route took; a missing asset is a 404 problem. */
async function uiAnswer(core: Core, request: Request): Promise<Response> {
  const path = pathOf(request);
  try {
    const s = getSettings(core);
    const images = imageSources({ restricted: s.restrictImageHosts, hosts: s.imageAllowlist });
    // A page view's frame carries the page when its caller may read it (ui-page-view.ts), read
    // with the caller the pipeline resolved for this request, as the API's own answers are; not
    // with a side panel open (?panel=…), which the app draws beside a narrower page.
    const caller = stateOf(request)?.caller;
    const readPage =
      caller && !/[?&]panel=/.test(request.url)
        ? (p: string) => import("./ui-page-view").then((m) => m.readablePageMain(core, caller, p))
        : undefined;
    const response = await uiResponse(path, request.headers.get("accept-encoding"), images, request.headers.get("cookie"), readPage);
    if (response) return response;
  } catch (err) {
    core.log.error("web UI unavailable", { error: err instanceof Error ? err.message : String(err) });
    return problemResponse(
      new AppError("service_unavailable", { detail: "The web UI could not be built: see the server's log. The API still answers." }),
    );
  }
  return problemResponse(new AppError("not_found", { detail: `No file ${path.slice(0, 200)}` }));
}

/** Runs work nobody waits on (after the answer, timers): an error is logged, never thrown. */
function contain(core: Core, what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    core.log.error(`${what} failed`, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
}

/** A full or failing disk is the server's condition, not a bug: the same 503 as a refused COMMIT. */
const DISK_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS", "EIO", "SQLITE_FULL", "SQLITE_IOERR"]);
const isDiskFailure = (error: unknown) => DISK_CODES.has(errorCode(error));
const DISK_FULL = new AppError("service_unavailable", {
  detail:
    "The server could not write to its disk (full or failing), so nothing was saved. Try again " +
    "later; an administrator should free space on the server and check its log.",
});

function toErrorResponse(core: Core, code: unknown, error: unknown, request: Request, methodsOf: MethodsOf): Response {
  // Elysia wraps whatever the parse hook throws in a ParseError; ours is its cause.
  if (code === "PARSE" && (error as Error).cause instanceof AppError) error = (error as Error).cause;
  if (error instanceof AppError) return problemResponse(error);
  if (code === "VALIDATION") {
    const v = error as { type?: string; all?: Array<{ path: string; message: string; value?: unknown; schema?: { error?: unknown } }> };
    return problemResponse(fromValidation(v.type ?? "body", v.all ?? []));
  }
  if (code === "NOT_FOUND") {
    const path = pathOf(request);
    const allow = methodsOf(path);
    if (allow.length)
      return problemResponse(
        new AppError("method_not_allowed", {
          detail: `${path.slice(0, 200)} answers ${allow.join(", ")}, not ${request.method.slice(0, 20)}.`,
          headers: { Allow: allow.join(", ") },
        }),
      );
    return problemResponse(new AppError("not_found", { detail: `No endpoint ${path.slice(0, 200)}` }));
  }
  if (code === "PARSE")
    return problemResponse(
      new AppError("validation_failed", { field: "body", detail: "body: is not valid JSON", errors: { body: ["is not valid JSON"] } }),
    );
  if (isDiskFailure(error)) {
    core.log.error("disk failure", { path: pathOf(request), error: (error as Error).message });
    return problemResponse(DISK_FULL);
  }
  // Anything else is our bug: log it whole, answer nothing about it.
  core.log.error("unhandled error", {
    path: pathOf(request),
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return problemResponse(new AppError("internal_error"));
}
