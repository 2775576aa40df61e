/** Which branches of a space's tree are open: remembered per space in localStorage. */
import { useCallback, useEffect, useState } from "react";

const key = (spaceId: string) => `cairn.tree.open.${spaceId}`;

function read(spaceId: string): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(key(spaceId)) ?? "[]") as string[]);
  } catch {
    return new Set();
  }
}

export function useOpenBranches(spaceId: string, mustBeOpen: string[]) {
  const [open, setOpen] = useState(() => read(spaceId));
  // The branches above the page on screen open by themselves (and stay remembered).
  const wanted = mustBeOpen.join(",");
  useEffect(() => {
    if (!wanted) return;
    setOpen((prev) => (wanted.split(",").every((id) => prev.has(id)) ? prev : new Set([...prev, ...wanted.split(",")])));
  }, [wanted]);
  useEffect(() => {
    localStorage.setItem(key(spaceId), JSON.stringify([...open]));
  }, [open, spaceId]);
  const toggle = useCallback((id: string, to?: boolean) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (to ?? !prev.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  return { open, toggle, setOpen };
}
