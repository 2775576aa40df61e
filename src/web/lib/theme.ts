/**
 * The theme: the system's unless the person picked one (kept in localStorage). Set on <html>
 * by the entry module before the first render; no inline script is allowed by the CSP.
 */
export type ThemeChoice = "system" | "light" | "dark";
const KEY = "cairn.theme";

export function storedTheme(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === "light" || v === "dark" ? v : "system";
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === "system") {
    document.documentElement.removeAttribute("data-theme");
    localStorage.removeItem(KEY);
  } else {
    document.documentElement.setAttribute("data-theme", choice);
    localStorage.setItem(KEY, choice);
  }
}

/** The theme in effect now (the system's when none was picked). */
export function effectiveTheme(): "light" | "dark" {
  const choice = storedTheme();
  if (choice !== "system") return choice;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}
