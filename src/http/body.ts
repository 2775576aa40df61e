import { AppError, invalid } from "../platform/errors";

export const KB = 1024;
export const MB = 1024 * KB;

/**
 * The largest body each route reads, enforced while it streams in (a chunked body declares no
 * length) and up front when Content-Length says more. The first match wins. Sign-in and the
 * other account forms need a few KB; page content may be 2 MB of document (MAX_CONTENT_BYTES),
 * sent as a JSON string inside the JSON body, so escaping can nearly double it. Uploads
 * (pipeline.ts STREAMED_BODIES) count their own bytes against ATTACHMENT_MAX_BYTES.
 */
const LIMITS: ReadonlyArray<{ path: RegExp; limit: number; why: string }> = [
  { path: /^\/api\/auth\//, limit: 16 * KB, why: "Account requests may be at most 16 KB." },
  { path: /^\/api\/(pages|templates)(\/|$)/, limit: 8 * MB, why: "Page and template bodies may be at most 8 MB (a document of at most 2 MB)." },
];
const DEFAULT = { limit: 1 * MB, why: "Request bodies may be at most 1 MB." };

export interface BodyLimit {
  limit: number;
  why: string;
}

export function bodyLimitFor(path: string): BodyLimit {
  return LIMITS.find((l) => l.path.test(path)) ?? DEFAULT;
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
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
}
