/**
 * URL checks for link hrefs and image sources. A stored page is rendered for other readers, so
 * a `javascript:` (or `data:`, `vbscript:`…) URL would be stored cross-site scripting.
 */

/** Schemes a link may use; anything without a scheme is a relative link and is fine. */
export const LINK_SCHEMES = ["http", "https", "mailto", "tel"] as const;
/** Images load from the web or from our own attachment URLs (relative); no data: blobs. */
export const IMAGE_SCHEMES = ["http", "https"] as const;

export const MAX_URL_LENGTH = 4096;

/** Why `url` is not acceptable, or undefined when it is. */
export function urlProblem(url: unknown, schemes: readonly string[]): string | undefined {
  if (typeof url !== "string" || url.trim() === "") return "must be a non-empty URL";
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  // Browsers drop tabs and newlines inside URLs ("java\tscript:" runs), so refuse controls outright.
  if (/[\u0000-\u001f\u007f]/.test(url)) return "must not contain control characters";
  // Browsers also ignore leading spaces before the scheme.
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && !schemes.includes(scheme)) {
    return `scheme "${scheme}:" is not allowed (use ${schemes.map((s) => s + ":").join(", ")} or a relative URL)`;
  }
  return undefined;
}
