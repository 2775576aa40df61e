import { lazy, Suspense, useEffect, useState } from "react";
import { useMe } from "../../app/session";
import { Search } from "../../ui/icons";
import { isBareShortcut } from "../../lib/keyboard";

const SearchPalette = lazy(() => import("./SearchPalette").then((m) => ({ default: m.SearchPalette })));

/** The top bar's search field: opens the palette, as do Ctrl/⌘-K and "/" outside text fields. */
export function SearchLauncher({ spaceId }: { spaceId?: string }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key === "k" && (e.ctrlKey || e.metaKey)) || isBareShortcut(e, "/")) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  // Visitors of a public space read it; searching is for people signed in.
  if (!me.data) return null;
  return (
    <>
      <button
        type="button"
        className="search-launcher"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K /"
        title="Search (Ctrl+K or /)"
      >
        <Search size={16} aria-hidden="true" />
        <span className="search-launcher-text">Search…</span>
        <kbd aria-hidden="true">Ctrl K</kbd>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SearchPalette open={open} onOpenChange={setOpen} spaceId={spaceId} />
        </Suspense>
      ) : null}
    </>
  );
}
