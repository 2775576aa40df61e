/**
 * Editing a page in place: the title, emoji and labels above, the editor below, with the
 * page's own typography. Together with whoever else has the page open when live editing is on
 * and the room answers (CollabSession); otherwise alone, over HTTP (SoloSession). Until the
 * choice is made (a token, then the room's first sync or the copy kept on this device), the
 * page stays drawn as it was read, so nothing jumps.
 */
import { useEffect, useState, type ReactNode } from "react";
import type { Page, Space } from "../../api/types";
import { useMe } from "../../app/session";
import { colorFor } from "../../ui/Avatar";
import { CollabRoom, fetchCollabToken } from "./collab-provider";
import { CollabSession } from "./CollabSession";
import { SoloSession } from "./SoloSession";
import "./editor.css";
import "./collab.css";

/** How long the first connection may take before editing goes on alone. */
const FIRST_SYNC_MS = 6000;

type Mode = { kind: "deciding" } | { kind: "solo"; why: string | null } | { kind: "collab"; room: CollabRoom };

function useSessionMode(page: Page): Mode {
  const me = useMe().data;
  const [mode, setMode] = useState<Mode>({ kind: "deciding" });
  const live = page.status !== 0; // a draft is its author's alone
  useEffect(() => {
    if (!live) return setMode({ kind: "solo", why: null });
    if (!me) return;
    let room: CollabRoom | null = null;
    let cancelled = false;
    void (async () => {
      const token = await fetchCollabToken(page.id).catch(() => null);
      if (cancelled) return;
      if (!token?.enabled)
        return setMode({
          kind: "solo",
          why: token ? null : "Live editing is out of reach: you are editing alone, and Update saves as usual.",
        });
      room = new CollabRoom(page.id, token, { id: me.id, name: me.displayName, color: colorFor(me.id) });
      await room.open();
      const ready = await room.ready(FIRST_SYNC_MS);
      if (cancelled) return;
      if (ready) return setMode({ kind: "collab", room });
      const why = room.getSnapshot().closedReason ?? "Live editing could not connect: you are editing alone, and Update saves as usual.";
      room.destroy();
      room = null;
      setMode({ kind: "solo", why });
    })();
    return () => {
      cancelled = true;
      room?.destroy();
    };
  }, [page.id, live, me?.id]);
  return mode;
}

/** `reading`: the page as read, shown while the session starts (the route's own view). */
export default function EditSession({ page, space, reading }: { page: Page; space: Space; reading: ReactNode }) {
  const mode = useSessionMode(page);
  if (mode.kind === "collab") return <CollabSession key="collab" page={page} space={space} room={mode.room} />;
  if (mode.kind === "solo") return <SoloSession key="solo" page={page} space={space} why={mode.why} />;
  return reading;
}
