/**
 * Applies the instance's branding (GET /api/instance → branding) to the page: the accent of each
 * theme as the CSS variables the tokens read (--accent-light, --accent-dark), the favicon, the
 * brand name at the end of every title, and the theme policy. It runs each time the instance's
 * facts arrive (app/session.ts), so the sign-in and register screens are branded on a first
 * visit, and again after an administrator saves, without a reload.
 */
import type { Instance } from "../api/types";
import { setThemePolicy } from "./theme";
import { setTitleSuffix } from "./title";

export type PublicBranding = Instance["branding"];

const HEX = /^#[0-9a-f]{6}$/i;

export function applyBranding(b: PublicBranding): void {
  const root = document.documentElement.style;
  // Set through the CSSOM (allowed by the CSP, unlike a style attribute in markup).
  if (HEX.test(b.accentLight)) root.setProperty("--accent-light", b.accentLight);
  if (HEX.test(b.accentDark)) root.setProperty("--accent-dark", b.accentDark);
  setFavicon(b.faviconUrl);
  setTitleSuffix(b.brandName);
  setThemePolicy(b.themePolicy === "user" ? null : b.themePolicy);
}

function setFavicon(url: string | null): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  // "data:," is the empty icon of index.html: no request for /favicon.ico.
  const href = url ?? "data:,";
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}
