/**
 * The one API client: openapi-fetch typed by schema.d.ts (generated from the server's OpenAPI
 * document), so paths, bodies and answers are the server's own. Every change sends
 * X-Requested-With (the server's CSRF guard); a problem document becomes an ApiError; a 401
 * sends the person to sign in and back.
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];

/** A problem document (RFC 9457) the API answered, with its catalogue code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string | undefined,
    readonly field: string | undefined,
    readonly body: Record<string, unknown>,
  ) {
    // What to show a person: the detail when the server gave one, else the title.
    super(detail ?? title);
  }
}

const listeners = new Set<(error: ApiError) => void>();
/** Called for every 401 (the session ended): the app sends the person to sign in. */
export function onUnauthorized(listener: (error: ApiError) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What a write answered 503 `maintenance` (a backup being restored) tells the person. */
export const MAINTENANCE =
  "The wiki is read-only for a few minutes while an administrator restores a backup. Nothing was saved: try again in a moment.";

/** The CSRF header on every change, and every problem answer turned into an ApiError (exported for its test). */
export const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== "GET" && request.method !== "HEAD") request.headers.set("X-Requested-With", "Cairn");
    return request;
  },
  async onResponse({ response, request }) {
    if (response.ok) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as Record<string, unknown>;
    throw problem(response.status, body, new URL(request.url).pathname, response.statusText);
  },
};

/**
 * The ApiError of a refused answer, made the same way for the typed client and for uploads
 * (api/upload.ts): the catalogue code, the server's words, the read-only notice during a
 * restore, and the sign-in listeners told when a session ended.
 */
export function problem(status: number, body: Record<string, unknown>, pathname: string, fallbackTitle: string): ApiError {
  const code = String(body.code ?? "error");
  // A restore makes the whole wiki read-only for a while: every write says so the same way.
  const detail = code === "maintenance" ? MAINTENANCE : (body.detail as string | undefined);
  const error = new ApiError(status, code, String(body.title ?? fallbackTitle), detail, body.field as string | undefined, body);
  // /api/auth/me answering 401 is how the app learns nobody is signed in; not an expiry.
  if (status === 401 && !pathname.startsWith("/api/auth/")) for (const l of listeners) l(error);
  return error;
}

export const api = createClient<paths>({ baseUrl: "" });
api.use(csrf);

/** The data of an openapi-fetch answer (errors were already thrown by the middleware). */
export async function data<T>(call: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const { data } = await call;
  return data as T;
}

/** A page's document: contentJson is JSON text on the wire, parsed once here. */
export function parseDoc(contentJson: string): DocJson {
  try {
    return JSON.parse(contentJson) as DocJson;
  } catch {
    return { type: "doc", content: [] };
  }
}

export interface DocJson {
  type: string;
  attrs?: Record<string, unknown>;
  content?: DocJson[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}
