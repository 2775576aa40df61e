/**
 * Gives memory back once the server goes quiet. Signing in alone (argon2id, 19 MiB) or an
 * upload leaves garbage that JavaScriptCore collects only when it next needs room, so an idle
 * server kept ~10 MB more than it uses: on a Raspberry Pi that is worth one full collection
 * (a few milliseconds) after each burst of work, never while requests are coming in.
 */
const QUIET_MS = 1_000;

export function collectWhenIdle(): { touch(): void; stop(): void } {
  let worked = false;
  let lastRequestAt = 0;
  const timer = setInterval(() => {
    if (worked && performance.now() - lastRequestAt >= QUIET_MS) {
      worked = false;
      Bun.gc(true);
    }
  }, QUIET_MS);
  timer.unref?.();
  return {
    touch() {
      worked = true;
      lastRequestAt = performance.now();
    },
    stop: () => clearInterval(timer),
  };
}
