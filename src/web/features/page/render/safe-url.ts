/**
 * Hrefs and image sources from a stored document, checked again before they reach the DOM:
 * the server refuses other schemes, but a reader must never depend on that alone. Links follow
 * src/content/urls.ts's linkTarget (a small module of its own, so the reading bundle takes
 * nothing of the editor schema with it): `//host`, `/\host` and the like are other hosts.
 */
import { linkTarget } from "../../../../content/urls";

const IMAGE = new Set(["http", "https"]);

function allowed(url: unknown, schemes: Set<string>): string | undefined {
  if (typeof url !== "string" || url.trim() === "" || /[\u0000-\u001f\u007f]/.test(url)) return undefined;
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || schemes.has(scheme) ? url : undefined;
}

export const safeHref = (url: unknown) => linkTarget(url)?.href;
export const safeImageSrc = (url: unknown) => allowed(url, IMAGE);
/** A link to another site opens in a new tab, without handing it this window. */
export const isExternal = (href: string) => linkTarget(href)?.kind === "web" && new URL(href).origin !== window.location.origin;
