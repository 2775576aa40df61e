/** Watch / Stop watching a page or a space: told of its changes in the notifications. */
import { useAction } from "../../lib/mutation";
import { Button } from "../../ui/Button";
import { Eye } from "./icons";
import "./notifications.css";
import { useWatch, useWatchMutation } from "./queries";

/**
 * `look="link"` is the quiet form of the space sidebar's footer links ("Watch space"): the space
 * home may show a page instead of its own Watch button, so the sidebar carries one too.
 */
export function WatchButton({
  kind,
  id,
  name,
  look = "button",
}: {
  kind: "page" | "space";
  id: string;
  name: string;
  look?: "button" | "link";
}) {
  const watch = useWatch(kind, id, true);
  const change = useAction(useWatchMutation(kind, id), {
    success: (now) => (now ? `You will be told of changes to “${name}”` : `You no longer watch “${name}”`),
    failure: (err) => `Could not change watching: ${(err as Error).message}`,
    toastFailure: true,
  });
  const busy = change.busy;
  if (watch.data === undefined) return null;
  const watching = watch.data;
  const toggle = () => change.run(!watching);
  const hint = kind === "page" ? "Be told when this page is edited or commented on" : "Be told when a page is created in this space";
  if (look === "link") {
    return (
      <button
        type="button"
        className="sidebar-link watch-link"
        onClick={() => void toggle()}
        disabled={busy}
        aria-pressed={watching}
        title={watching ? "Stop watching" : hint}
      >
        <Eye aria-hidden="true" /> {watching ? `Watching ${kind}` : `Watch ${kind}`}
      </button>
    );
  }
  return (
    <Button
      size="sm"
      variant="ghost"
      className="watch-button"
      onClick={() => void toggle()}
      busy={busy}
      aria-pressed={watching}
      title={watching ? "Stop watching" : hint}
    >
      <Eye size={15} aria-hidden="true" /> <span className="watch-label">{watching ? "Watching" : "Watch"}</span>
    </Button>
  );
}
