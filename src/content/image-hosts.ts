/**
 * Which images of other sites a page shows (docs/decisions.md, "Images from other sites"). The
 * server's Content-Security-Policy for the web UI and the reading view's renderer both follow
 * this one rule, so an image the browser would block is drawn as a link with its description
 * instead: never a broken image and a console error.
 *
 * Our own images (attachments, relative addresses) are always shown. Another site's image is
 * shown over https only (an http image would be sent in the clear, and is blocked on an https
 * page anyway), from any host while `restricted` is off, else from a listed host
 * (`*.example.com` also allows its subdomains).
 */
export interface ImageHostPolicy {
  restricted: boolean;
  hosts: string[];
}

/** What a list entry must look like to go into the policy header (the settings already check it). */
const ENTRY = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** The CSP `img-src` sources for the web UI under this policy. */
export function imageSources(policy: ImageHostPolicy): string {
  const own = "'self' data: blob:";
  if (!policy.restricted) return `${own} https:`;
  const hosts = policy.hosts.filter((h) => ENTRY.test(h)).map((h) => `https://${h}`);
  return hosts.length ? `${own} ${hosts.join(" ")}` : own;
}

/** Whether the image at `src` (already a safe URL) is shown under this policy. */
export function imageShown(src: string, policy: ImageHostPolicy): boolean {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(src)?.[1]?.toLowerCase();
  if (scheme === undefined) return !src.startsWith("//") && !src.startsWith("\\");
  if (scheme !== "https") return false;
  if (!policy.restricted) return true;
  let host: string;
  try {
    host = new URL(src).hostname.toLowerCase();
  } catch {
    return false;
  }
  return policy.hosts.some((h) => (h.startsWith("*.") ? host.endsWith(h.slice(1)) && host.length > h.length - 1 : host === h));
}
