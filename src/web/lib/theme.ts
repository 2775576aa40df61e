/**
 * The theme: the system's unless the person picked one (kept in localStorage). It is always
 * written on <html> as data-theme="light" or "dark" (the tokens key off it), by the entry module
 * before the first render (the CSP allows no inline script), and follows the system's setting
 * as it changes while the choice is "system".
 */
export type ThemeChoice = "system" | "light" | "dark";
const KEY = "cairn.theme";
const systemDark = () => matchMedia("(prefers-color-scheme: dark)");

export function storedTheme(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === "light" || v === "dark" ? v : "system";
}

/** The instance's theme policy (branding): the theme everyone gets, or null for each person's choice. */
let forced: "light" | "dark" | null = null;

export function setThemePolicy(theme: "light" | "dark" | null): void {
  forced = theme;
  paint(storedTheme());
}

/** Whether branding fixes the theme for everyone (the account menu then offers no switch). */
export const themeIsForced = () => forced !== null;

function paint(choice: ThemeChoice): void {
  const theme = forced ?? (choice === "system" ? (systemDark().matches ? "dark" : "light") : choice);
  document.documentElement.setAttribute("data-theme", theme);
  // For the server: a page view's frame is painted in the page, before this script runs, in
  // the theme last painted here (http/ui-frame.ts). Not a secret; a year, renewed each visit.
  document.cookie = `cairn_theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === "system") localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  paint(choice);
}

/** Sets the theme now and keeps following the system while nothing else was chosen. */
export function startTheme(): void {
  paint(storedTheme());
  systemDark().addEventListener("change", () => paint(storedTheme()));
}

/** The theme painted on <html> now, as a value React follows (toasts draw themselves in it). */
export function paintedTheme(): "light" | "dark" {
  return document.documentElement.getAttribute("data-theme") === "dark" ? "dark" : "light";
}

export function onThemePainted(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}
