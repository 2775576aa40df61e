/**
 * Sent on every response, errors included (docs/api.md, "Security headers"). No inline script
 * is allowed; inline styles are, because the editor and the API reference set style attributes.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' " +
    "data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

export const HSTS = "max-age=31536000; includeSubDomains";

const SECURITY_ENTRIES = Object.entries(SECURITY_HEADERS);

/**
 * Every answer carries the security headers, whatever made it (http/app.ts adds them where the
 * server hands the answer to Bun): the answer's own value of a header wins (a file's sandboxing
 * Content-Security-Policy), the others are added, and HSTS over HTTPS.
 */
export function withSecurityHeaders(response: Response, https: boolean): Response {
  // Made from the prebuilt headers (answerWith): every one is there already.
  if (!https && secured.has(response)) return response;
  let headers = response.headers;
  const missing = SECURITY_ENTRIES.filter(([name]) => !headers.has(name));
  const hsts = https && !headers.has("strict-transport-security");
  if (!missing.length && !hsts) return response;
  try {
    for (const [name, value] of missing) headers.set(name, value);
    if (hsts) headers.set("strict-transport-security", HSTS);
    return response;
  } catch {
    // An answer whose headers cannot change (as fetch() gives): copied, with the headers added.
    headers = new Headers(headers);
    for (const [name, value] of missing) headers.set(name, value);
    if (hsts) headers.set("strict-transport-security", HSTS);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * The security headers and a content type as one Headers object, made once per content type: a
 * Response given a Headers object copies it natively (about 1 µs), where a plain object of the
 * same nine headers took about 5 µs to convert, on every answer.
 */
const baseHeaders = new Map<string, Headers>();
export function securedHeaders(contentType: string): Headers {
  let headers = baseHeaders.get(contentType);
  if (!headers) baseHeaders.set(contentType, (headers = new Headers({ ...SECURITY_HEADERS, "content-type": contentType })));
  return headers;
}

/**
 * A 200 whose body is JSON text made earlier (kept between requests): sent as it is, so the
 * framework neither serialises nor checks it against the route's schema again (the schema
 * stays for the OpenAPI document). It carries the headers the route set (moved from `set`,
 * which is then empty: with headers left to merge, Elysia would copy the response into a new
 * one around a stream of its body). Typed `never` so a route may answer it in place of its body.
 */
export function readyJson(json: string | Blob, set: { headers: unknown }): never {
  return readyAnswer(json, "application/json", set);
}

/** readyJson for any text answer (a page's Markdown); a Blob holds the text's UTF-8 bytes. */
export function readyAnswer(text: string | Blob, contentType: string, set: { headers: unknown }): never {
  return answerWith(text, securedHeaders(contentType), set);
}

/**
 * readyJson for an answer that has two bodies at the same address, gzipped or not (a large
 * kept answer: platform/db/kept-answers.ts, keptBodyFor): `gzipped` says which this is, and
 * either way the answer says `Vary: accept-encoding`.
 */
export function readyJsonVarying(body: Blob, gzipped: boolean, set: { headers: unknown }): never {
  return answerWith(body, gzipped ? keptJsonHeaders.gzip : keptJsonHeaders.plain, set);
}

const keptJsonHeaders = {
  plain: new Headers({ ...SECURITY_HEADERS, "content-type": "application/json", vary: "accept-encoding" }),
  gzip: new Headers({ ...SECURITY_HEADERS, "content-type": "application/json", vary: "accept-encoding", "content-encoding": "gzip" }),
};

/** Answers made from the prebuilt headers (a route's own header replaces a value, never removes one). */
const secured = new WeakSet<Response>();

function answerWith(text: string | Blob, headers: Headers, set: { headers: unknown }): never {
  const gathered = set.headers as Record<string, string>;
  const response = new Response(text, { headers });
  secured.add(response);
  for (const name in gathered) {
    response.headers.set(name, gathered[name]);
    delete gathered[name];
  }
  return response as never;
}
