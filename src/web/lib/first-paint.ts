/**
 * Whether the app has painted its first screen. Parts that are not what a person opened the
 * address for (the sidebar's page tree beside a page) wait for it on the first view only, so
 * the page itself is drawn without waiting for them; afterwards everything renders at once.
 */
import { useEffect, useState } from "react";

let painted = false;
const waiting = new Set<() => void>();

/** After the next frame is drawn: a frame callback, then a task once that frame is painted. */
function afterNextPaint(): void {
  requestAnimationFrame(() =>
    setTimeout(() => {
      painted = true;
      for (const wake of waiting) wake();
      waiting.clear();
    }, 0),
  );
}

/** False on the app's first render only; true from the render after its first paint. */
export function useFirstPaintDone(): boolean {
  const [done, setDone] = useState(painted);
  useEffect(() => {
    if (done) return;
    if (painted) return setDone(true);
    const wake = () => setDone(true);
    if (waiting.size === 0) afterNextPaint();
    waiting.add(wake);
    return () => void waiting.delete(wake);
  }, [done]);
  return done;
}
