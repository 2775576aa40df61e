/**
 * Sent on every response, errors included (docs/decisions.md, "Security headers"). No inline script
 * is allowed; inline styles are, because the editor and the API reference set style attributes.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * A 200 whose body is JSON text made earlier (kept between requests): sent as it is, so the
 * framework neither serialises nor checks it against the route's schema again (the schema
 * stays for the OpenAPI document). It carries the headers gathered so far (the security
 * headers set for every request, and the route's own), which are then cleared: with headers
 * left to merge, Elysia would copy the response into a new one around a stream of its body.
 * Typed `never` so a route may answer it in place of its body.
 */
export function readyJson(json: string, set: { headers: unknown }): never {
  return readyAnswer(json, "application/json", set);
}

/** readyJson for any text answer (a page's Markdown). */
export function readyAnswer(text: string, contentType: string, set: { headers: unknown }): never {
  const gathered = set.headers as Record<string, string>;
  const headers = { ...gathered, "content-type": contentType };
  for (const name of Object.keys(gathered)) delete gathered[name];
  return new Response(text, { headers }) as never;
}
