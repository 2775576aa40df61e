import { MAX_CONTENT_BYTES } from "../common/limits";
import { AppError, invalid } from "../platform/errors";

export const KB = 1024;
export const MB = 1024 * KB;

/**
 * The largest body a route reads, enforced while it streams in (a chunked body declares no
 * length) and up front when Content-Length says more; a 413 `payload_too_large` names it.
 * `streamed`: the route reads request.body itself (uploads) and counts its own bytes against
 * `limit`, so the JSON parser leaves the body unread and Content-Length is the route's to judge
 * (a multipart envelope is a little larger than the file it carries).
 */
export interface BodyLimit {
  limit: number;
  why: string;
  streamed?: boolean;
}

/** Where a route keeps its declaration: an OpenAPI extension of its `detail` (docs-openapi.ts finishes it). */
export const BODY_LIMIT_KEY = "x-body-limit";

/**
 * A route's body limit, declared where the route is: spread into its `detail`,
 * `detail: { ...detail("Sign in"), ...bodyLimit(16 * KB, "Account requests may be at most 16 KB.") }`.
 * A route that declares none takes DEFAULT_BODY_LIMIT.
 */
export function bodyLimit(limit: number, why: string, options: { streamed?: boolean } = {}): { [BODY_LIMIT_KEY]: BodyLimit } {
  return { [BODY_LIMIT_KEY]: { limit, why, ...(options.streamed ? { streamed: true } : {}) } };
}

export const DEFAULT_BODY_LIMIT: BodyLimit = { limit: 1 * MB, why: "Request bodies may be at most 1 MB." };

/**
 * Routes that carry a page document (pages, drafts being published, templates): the document
 * may be MAX_CONTENT_BYTES (2 MB), sent as a JSON string inside the JSON body, so escaping can
 * nearly double it; four times leaves room to spare for the other fields.
 */
export const DOCUMENT_BODY = bodyLimit(
  4 * MAX_CONTENT_BYTES,
  `Bodies that carry a document may be at most ${(4 * MAX_CONTENT_BYTES) / MB} MB (a document ` +
    `of at most ${MAX_CONTENT_BYTES / MB} MB, escaped as a JSON string).`,
);

/** A route's own declaration, or null. */
export function declaredBodyLimit(route: { hooks?: unknown }): BodyLimit | null {
  const detail = (route.hooks as { detail?: Record<string, unknown> } | undefined)?.detail;
  return (detail?.[BODY_LIMIT_KEY] as BodyLimit | undefined) ?? null;
}

export function tooLarge({ limit, why }: BodyLimit): AppError {
  return new AppError("payload_too_large", { detail: why, extra: { limit } });
}

/**
 * The body as text, read chunk by chunk and abandoned (413) as soon as it passes the limit,
 * so a client cannot make the server hold more than that by leaving out Content-Length.
 */
export async function readBodyText(request: Request, limit: BodyLimit): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch {
      throw invalid("body", "broke off before its end"); // the client went away or lied about the length
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > limit.limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  return decoder.decode(Buffer.concat(chunks, size));
}

const decoder = new TextDecoder();

/** Deeper than any body of ours can legitimately be (documents travel as JSON strings). */
export const MAX_BODY_DEPTH = 32;

/**
 * Refuses (400) a parsed body nested deeper than MAX_BODY_DEPTH. JSON.parse builds a
 * million-deep array without complaint, but every recursive walk after it (validation,
 * cleaning) would overflow the stack; this walk keeps its own stack.
 */
export function checkDepth(value: unknown): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > MAX_BODY_DEPTH) throw invalid("body", `is nested more than ${MAX_BODY_DEPTH} levels deep`);
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
}
