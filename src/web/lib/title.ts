import { useEffect } from "react";

/** The browser tab's title: what is on screen first, then "Cairn". */
export function useTitle(...parts: Array<string | null | undefined>): void {
  const title = [...parts.filter((p): p is string => !!p), "Cairn"].join(" · ");
  useEffect(() => {
    document.title = title;
  }, [title]);
}
