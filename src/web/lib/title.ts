import { useEffect } from "react";

/** What every title ends with: the brand name (lib/branding.ts sets it from GET /api/instance). */
let suffix = "Cairn";

/** A new brand name: later titles end with it, and so does the one showing now. */
export function setTitleSuffix(name: string): void {
  if (name === suffix) return;
  const old = suffix;
  suffix = name;
  const t = document.title;
  document.title = t === old ? name : t.endsWith(` · ${old}`) ? `${t.slice(0, -old.length)}${name}` : t;
}

/** The browser tab's title: what is on screen first, then the brand name. */
export function useTitle(...parts: Array<string | null | undefined>): void {
  const title = [...parts.filter((p): p is string => !!p), suffix].join(" · ");
  useEffect(() => {
    document.title = title;
  }, [title]);
}
