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

/**
 * Where a link goes, decided once for every renderer (the reading view, the HTML, Markdown and
 * static-site exports) and the editor's link dialog:
 * - `internal`: a path on this wiki (`/p/…`, `docs/x`, `?q`, `#part`), rendered as stored;
 * - `web`: http(s) on a host, opened in a new tab, with its href as a browser reads it;
 * - `other`: mailto: and tel:.
 * Undefined: not a link at all (a refused scheme, control characters, unparseable).
 *
 * A reference without a scheme is internal only if a browser would resolve it on this wiki's
 * host. Browsers read `\` as `/` in web addresses, so `//host/x`, `/\host/x`, `\\host\x` and
 * `\/host` all name another host: they are `web`, their href the resolved `https://host/x`
 * (never shown as a path of ours). `https:host/x` (a scheme without slashes) is read as
 * `https://host/x` too: resolved against a page of ours it would be a path on an https wiki
 * but another host on an http one, so it is taken as the other host, everywhere.
 */
export type LinkTarget = { kind: "internal" | "web" | "other"; href: string };

/** A base that stands for "a page of this wiki" when resolving a reference. */
const HERE = "https://cairn.invalid/s/KEY/p/";

export function linkTarget(url: unknown, schemes: readonly string[] = LINK_SCHEMES): LinkTarget | undefined {
  if (urlProblem(url, schemes)) return undefined;
  const text = (url as string).trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== "http" && scheme !== "https") return { kind: "other", href: text };
  let resolved: URL;
  try {
    resolved = scheme ? new URL(text) : new URL(text, HERE);
  } catch {
    return undefined;
  }
  if (!scheme && resolved.host === "cairn.invalid") return { kind: "internal", href: slashes(text) };
  if (!resolved.host) return undefined;
  // An ordinary address keeps its spelling; an unusual one becomes what a browser would follow.
  return { kind: "web", href: /^https?:\/\/[^\\]*$/i.test(text) ? text : resolved.href };
}

/** Backslashes in a path read as slashes (as browsers read them), the query and fragment as they are. */
function slashes(href: string): string {
  const end = href.search(/[?#]/);
  const path = end < 0 ? href : href.slice(0, end);
  return path.includes("\\") ? path.replaceAll("\\", "/") + href.slice(path.length) : href;
}
