/**
 * Hrefs and image sources from a stored document, checked again before they reach the DOM:
 * the server refuses other schemes, but a reader must never depend on that alone. (The same
 * rule as src/content/urls.ts, restated here so the reading bundle imports nothing of the
 * editor schema.)
 */
const LINK = new Set(["http", "https", "mailto", "tel"]);
const IMAGE = new Set(["http", "https"]);

function allowed(url: unknown, schemes: Set<string>): string | undefined {
  if (typeof url !== "string" || url.trim() === "" || /[\u0000-\u001f\u007f]/.test(url)) return undefined;
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || schemes.has(scheme) ? url : undefined;
}

export const safeHref = (url: unknown) => allowed(url, LINK);
export const safeImageSrc = (url: unknown) => allowed(url, IMAGE);
/** A link to another site opens in a new tab, without handing it this window. */
export const isExternal = (href: string) => /^\s*https?:\/\//i.test(href) && !href.startsWith(window.location.origin);
