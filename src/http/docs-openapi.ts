import { toOpenAPISchema } from "@elysiajs/openapi/openapi";
import type { AnyElysia, InternalRoute } from "elysia";
import { SESSION_COOKIE } from "../auth/sessions";
import { ERROR_CODES } from "../platform/errors";
import { BODY_LIMIT_KEY, type BodyLimit, DEFAULT_BODY_LIMIT } from "./body";
import { SERVICE_NAME } from "./pipeline";

// The document is plain JSON; typing every OpenAPI object would add nothing the validator test
// does not already check.
type Json = Record<string, any>;

const PROBLEM_REF = { $ref: "#/components/schemas/Problem" };

/**
 * What each status means (docs/api.md, "Errors are problem documents"); the error codes
 * themselves are in info.description.
 */
const STATUS_MEANING: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "204": "Done; no body",
  "400": "Something in the request is wrong; `field` and `errors` name the field and why",
  "401": "Not signed in, or the API token is wrong, revoked or expired",
  "403": "Not allowed; `code` says why (for example read_only_token, token_not_allowed, reauth_required)",
  "404": "Does not exist, or the caller may not know that it exists",
  "409": "Conflict with the current state",
  "413": "The request is too large",
  "415": "The body is not JSON",
  "429": "Too many requests; the Retry-After header gives the seconds to wait",
  "503": "Temporarily unavailable",
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  System: "Health and public facts about the instance",
  Auth: "Accounts, browser sessions and re-authentication",
  "API tokens": "Personal API tokens (managed from a browser session)",
  Users: "The directory of accounts",
  Admin: "Instance administration",
};

const SECURITY_SCHEMES = {
  bearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "cct_…",
    description:
      "An API token, sent as `Authorization: Bearer <token>`. Token values start with `cct_`. " +
      "A token acts as its owner; a read-only token may only use GET.",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      `The browser session cookie set by POST /api/auth/login. Session requests other than GET must also send ` +
      `the header \`X-Requested-With: ${SERVICE_NAME}\` (403 csrf_header_missing otherwise).`,
  },
};

function describeApi(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.title} |`);
  return [
    "The HTTP interface of this Cairn instance. Requests that send data use JSON (`Content-Type: application/json`); answers are JSON.",
    "",
    `**Authentication.** Either an API token (\`Authorization: Bearer cct_…\`) or the browser session cookie ` +
      `\`${SESSION_COOKIE}\`. Session requests other than GET must send \`X-Requested-With: ${SERVICE_NAME}\`. Endpoints ` +
      `marked as needing no authentication can be called anonymously (rate limited per address).`,
    "",
    "**A first call.** Mint a token from a signed-in session (`POST /api/api-tokens`, shown once), then use it:",
    "",
    "```sh",
    "TOKEN='cct_…'  WIKI='http://127.0.0.1:3000'",
    'curl -H "Authorization: Bearer $TOKEN" \\',
    "  $WIKI/api/auth/me",
    'curl -H "Authorization: Bearer $TOKEN" \\',
    '  "$WIKI/api/search?q=onboarding"',
    "```",
    "",
    "**Errors** are RFC 9457 problem documents (`application/problem+json`): `{status, title, code?, " +
      "detail?, field?, errors?}`. The `code` is stable and machine-checkable:",
    "",
    "| Code | Status | Meaning |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}

/**
 * The whole app's routes, seen from a plugin: Elysia rebinds a plugin's getGlobalRoutes to its
 * parent's on `.use` (that is how @elysiajs/openapi's generator reads them); its types keep the
 * methods protected.
 */
interface RouteRegistry {
  getGlobalRoutes(): InternalRoute[];
  getGlobalDefinitions(): unknown;
}
const registry = (app: AnyElysia) => app as unknown as RouteRegistry;

/**
 * Elysia registers our JSON body parser (app.ts onParse) as a function, which the generator
 * cannot name, so it would describe every body with no media type at all. Routes that name a
 * parser keep it; the rest are shown as what the function accepts: JSON.
 */
function jsonParsedView(app: AnyElysia): AnyElysia {
  const routes = registry(app)
    .getGlobalRoutes()
    .map((route) => {
      const parse = (route.hooks?.parse ?? []) as Array<{ fn: unknown }>;
      const named = parse.filter((p) => typeof p.fn === "string");
      return { ...route, hooks: { ...route.hooks, parse: named.length ? named : [{ fn: "json", scope: "local" }] } };
    });
  return { getGlobalRoutes: () => routes, getGlobalDefinitions: () => registry(app).getGlobalDefinitions() } as unknown as AnyElysia;
}

/**
 * t.Integer and t.Numeric also accept digit strings (Elysia's coercion for query strings); the
 * contract is the number, so the description keeps only the numeric branch.
 */
function plainNumbers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plainNumbers);
  if (!node || typeof node !== "object") return node;
  const { anyOf, ...rest } = node as Json;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const digits = anyOf.find((s: Json) => s?.type === "string" && (s.format === "integer" || s.format === "numeric"));
    const number = anyOf.find((s: Json) => s?.type === "integer" || s?.type === "number");
    if (digits && number) return plainNumbers({ ...rest, ...number });
  }
  return Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, plainNumbers(v)]));
}

/** Fixes the generator's view of each operation; answers the Problem schema it found. */
function finishOperation(op: Json): Json | undefined {
  let problem: Json | undefined;
  const body = op.requestBody?.content?.["application/json"]?.schema;
  // An empty body counts as {} (pipeline.ts), so a body with only optional fields may be left out.
  if (body) op.requestBody.required = (body.required?.length ?? 0) > 0;
  for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
    const schema = response.content?.["application/json"]?.schema;
    if (schema?.title === "Problem") {
      problem = schema;
      response.content = { "application/problem+json": { schema: PROBLEM_REF } };
      response.description = STATUS_MEANING[status] ?? "Problem document";
      continue;
    }
    // The generator's placeholder ("Response for status 200") says nothing; a route's own stays.
    if (/^Response for status/.test(response.description)) response.description = STATUS_MEANING[status] ?? response.description;
    // t.Void (204) comes out as a pseudo media type; a response without a body has no content.
    if (response.content && Object.values(response.content).some((media) => typeof media !== "object")) delete response.content;
  }
  return problem;
}

/**
 * The body limit the route declares (body.ts bodyLimit, copied from its detail into the
 * operation by the generator) or the default, the one the server enforces, shown where clients
 * look: `x-body-limit` in bytes and a sentence on the request body, and the 413 among the
 * answers. The declaration itself leaves the operation.
 */
function describeBodyLimit(op: Json): void {
  const declared = op[BODY_LIMIT_KEY] as BodyLimit | undefined;
  delete op[BODY_LIMIT_KEY];
  if (!op.requestBody) return;
  const { limit, why, streamed } = declared ?? DEFAULT_BODY_LIMIT;
  const refused = streamed
    ? "The body is read as it arrives: a larger file is refused with 413 `payload_too_large` (`limit` in bytes) as soon as it passes " +
      "the limit, whether or not the body declares its length (the multipart framing around the file may add a few KB)."
    : "A larger body is refused with 413 `payload_too_large` (`limit` in bytes) as soon as " +
      "it passes the limit, whether or not it declares its length.";
  // A route's own requestBody (uploads) is a shared object: the document gets its own copy.
  op.requestBody = { ...op.requestBody, [BODY_LIMIT_KEY]: limit, description: `${why} ${refused}` };
  op.responses ??= {};
  op.responses["413"] ??= { description: STATUS_MEANING["413"], content: { "application/problem+json": { schema: PROBLEM_REF } } };
}

/**
 * A group's index route (`.get("/")` under a prefix) is registered with a trailing slash; Elysia
 * answers both spellings (strictPath is off), and the spec writes paths without it.
 */
function withoutTrailingSlash(paths: Json): Json {
  const out: Json = {};
  for (const [path, item] of Object.entries<Json>(paths)) {
    const key = path.length > 1 ? path.replace(/\/+$/, "") : path;
    out[key] = { ...out[key], ...item };
  }
  return out;
}

/**
 * A recursive schema (t.Recursive: the page tree's TreeNode) is written inline with an `$id`,
 * and refers to itself by that bare name, which no reader can resolve ("invalid reference:
 * TreeNode"). Each such schema moves to components.schemas and every use becomes a $ref there.
 */
function hoistNamedSchemas(node: unknown, named: Json): unknown {
  if (Array.isArray(node)) return node.map((n) => hoistNamedSchemas(n, named));
  if (!node || typeof node !== "object") return node;
  const { $id, ...rest } = node as Json;
  const walked = Object.fromEntries(
    Object.entries(rest).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && !v.startsWith("#") ? `#/components/schemas/${v}` : hoistNamedSchemas(v, named),
    ]),
  );
  if (typeof $id !== "string" || !/^[A-Za-z][\w.-]*$/.test($id)) return walked;
  named[$id] = walked;
  return { $ref: `#/components/schemas/${$id}` };
}

/** Tags in the order the operations first use them, described where we know them. */
function tagsOf(paths: Json): Json[] {
  const names = new Set<string>();
  for (const item of Object.values<Json>(paths))
    for (const op of Object.values<Json>(item)) for (const tag of op.tags ?? []) names.add(tag);
  return [...names].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}

/**
 * GET /api/openapi.json: generated by @elysiajs/openapi from every route's `body`, `params`,
 * `query`, `response` and `detail`, then finished: problem answers share one schema under
 * application/problem+json, and the document gains the security schemes and error catalogue.
 */
function buildOpenApiDocument(app: AnyElysia, version: string): Json {
  const generated = plainNumbers(toOpenAPISchema(jsonParsedView(app), { staticFile: false }, undefined, undefined, "3.1.2")) as Json;
  const named: Json = {};
  const paths = hoistNamedSchemas(withoutTrailingSlash(generated.paths), named) as Json;
  let problem: Json | undefined;
  for (const item of Object.values<Json>(paths)) {
    for (const op of Object.values<Json>(item)) {
      problem = finishOperation(op) ?? problem;
      describeBodyLimit(op);
    }
  }
  return {
    openapi: "3.1.2",
    info: { title: "Cairn API", version, description: describeApi() },
    tags: tagsOf(paths),
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      schemas: { ...generated.components.schemas, ...named, ...(problem ? { Problem: problem } : {}) },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/**
 * The document for the app `plugin` is mounted in, built on first use. Routes are all registered
 * before the first request; the count guards against one added later.
 */
export function openApiDocument(plugin: AnyElysia, version: string): () => Json {
  let built: { routes: number; doc: Json } | null = null;
  return () => {
    const routes = registry(plugin).getGlobalRoutes().length;
    if (!built || built.routes !== routes) built = { routes, doc: buildOpenApiDocument(plugin, version) };
    return built.doc;
  };
}
