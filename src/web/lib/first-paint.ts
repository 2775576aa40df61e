/**
 * Whether the app has painted its first screen. On the first view only, the page and the
 * sidebar's tree wait for it: the frame around them (top bar, breadcrumbs, the space's name) is
 * a small first commit that reaches the screen sooner, and they follow in the next frame.
 * Afterwards everything renders at once.
 */
import { useEffect, useState } from "react";

let painted = false;

/**
 * Whether this page view came with its frame in the page (http/ui-frame.ts), painted before
 * this script ran: the page itself then need not wait a frame (the tree still does, so that
 * its answer and rows never come between the page and its first paint).
 */
export const framePainted = document.querySelector("#root > .boot-frame") !== null;
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
