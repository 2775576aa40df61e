/**
 * Gives memory back once the server goes quiet. Signing in alone (argon2id, 19 MiB) or an
 * upload leaves garbage that JavaScriptCore collects only when it next needs room, so an idle
 * server kept ~10 MB more than it uses: on a Raspberry Pi that is worth one full collection
 * (a few milliseconds) after each burst of work, never while requests are coming in.
 */
const QUIET_MS = 1_000;

/** Quiet this long after work, the executable's pages the work touched are given back again. */
const LONG_QUIET_MS = 60_000;

/** Loaded when first needed, after start: nothing before listening needs it. */
const releaseExecutablePages = () => import("./executable-pages").then((m) => m.releaseExecutablePages());

/**
 * The first quiet moment after start (the rest of the server loaded, the first requests
 * answered) also gives back what start-up alone left: JavaScriptCore's compiled code for the
 * start's one-off work (migrations, composing routes) and the allocator's free pages (~4 MB of
 * an idle server's memory). Only once: doing it after every burst would throw away the request
 * path's compiled code each time, and its next requests would compile it again.
 *
 * With it, and again after each long quiet, the executable's resident pages are given back
 * (executable-pages.ts): what the next requests need comes back from the page cache.
 */
export function collectWhenIdle(): { touch(): void; stop(): void } {
  let worked = false;
  let lastRequestAt = 0;
  let shrunk = false;
  // Work since the executable's pages were last given back.
  let touchedPages = false;
  const timer = setInterval(() => {
    const quietFor = performance.now() - lastRequestAt;
    if (worked && quietFor >= QUIET_MS) {
      worked = false;
      Bun.gc(true);
      if (!shrunk) {
        shrunk = true;
        // Deprecated in Bun's types, still its only way to ask for this; it runs when JSC is idle.
        Bun.shrink();
        touchedPages = false;
        void releaseExecutablePages();
      }
    } else if (touchedPages && !worked && quietFor >= LONG_QUIET_MS) {
      touchedPages = false;
      void releaseExecutablePages();
    }
  }, QUIET_MS);
  timer.unref?.();
  return {
    touch() {
      worked = true;
      touchedPages = true;
      lastRequestAt = performance.now();
    },
    stop: () => clearInterval(timer),
  };
}
