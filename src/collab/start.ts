/**
 * Collaboration in the server: the room host, the WebSocket, and what makes a room follow the
 * rest of Cairn. After each commit that recorded a relevant event (so the change is committed
 * first): a page's new version reaches its loaded room (external.ts), and connections whose
 * account may no longer edit their page are closed. A sweep re-checks every connection each
 * minute too, for rights that change without an event of their own.
 */
import type { JSONContent } from "@tiptap/core";
import type { Core } from "../core";
import { onEventRecorded, type EventRow } from "../events/outbox";
import { findPage, findPageMeta } from "../pages/store";
import { applyExternalChange } from "./external";
import { DEFAULT_TIMING, InProcessRoomHost, type HostTiming, type RoomHost } from "./room-host";
import { catchUp, roomStorage, setRoomHost } from "./service";
import { collabSocket, type CollabSocket, type FloodLimits } from "./socket";

export interface Collab extends CollabSocket {
  host: RoomHost;
  /** Closes every connection (clients reconnect after 1012) and saves every room. */
  stop(): void;
}

/** Events after which the connections of the space (or of every space) are checked again. */
const RIGHTS_EVENTS = new Set([
  "page.trashed",
  "page.purged",
  "page.moved",
  "space.archived",
  "space.deleted",
  "space.permission_granted",
  "space.permission_revoked",
  "space.permissions_reset",
  "space.visibility_changed",
  "page.restriction_added",
  "page.restriction_removed",
  "user.updated",
  "group.member_removed",
  "group.deleted",
]);
/** Events that may carry a new version of a page's document. */
const CONTENT_EVENTS = new Set(["page.updated", "page.created"]);

export interface CollabOptions {
  timing?: HostTiming;
  flood?: FloodLimits;
}

export function startCollab(core: Core, opts: CollabOptions = {}): Collab {
  const onError = (what: string, err: unknown) => core.log.error(what, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  const host = new InProcessRoomHost(roomStorage(core, applyExternalChange), opts.timing ?? DEFAULT_TIMING, onError);
  setRoomHost(core, host);
  const socket = collabSocket(core, host, opts.flood);

  const changedPages = new Set<string>();
  const recheckSpaces = new Set<string | null>();
  // Filled inside transactions, worked off after their commit (a rolled-back one only adds a
  // harmless re-check to the next).
  const afterCommit = () => {
    const pages = [...changedPages];
    const spaces = new Set(recheckSpaces);
    changedPages.clear();
    recheckSpaces.clear();
    for (const pageId of pages) {
      try {
        host.withLoadedRoom(pageId, (room) => {
          // Nobody in it: as for a stored room, an untouched working copy simply follows.
          if (room.peers.size === 0) return catchUp(core, room, applyExternalChange);
          const found = findPage(core, pageId);
          if (!found || found.page.currentVersion <= room.version) return;
          const content = JSON.parse(found.page.contentJson) as JSONContent;
          applyExternalChange(room, { content, version: found.page.currentVersion, authorId: found.page.updatedById, at: core.clock.now() });
        });
      } catch (err) {
        onError("bringing a collaborative document up to date failed", err);
      }
    }
    if (spaces.size > 0) {
      const all = spaces.has(null);
      socket.recheck(all ? undefined : (pageId) => {
        const found = findPageMeta(core, pageId);
        return !found || spaces.has(found.space.id);
      });
    }
  };
  onEventRecorded(core, (c, event: EventRow) => {
    const content = CONTENT_EVENTS.has(event.type) && event.targetType === "page";
    const rights = RIGHTS_EVENTS.has(event.type);
    if (!content && !rights) return;
    if (host.stats().peers === 0 && !content) return;
    if (content) {
      if (host.withLoadedRoom(event.targetId, () => true) === undefined) return;
      changedPages.add(event.targetId);
    }
    if (rights) recheckSpaces.add(event.type.startsWith("user.") || event.type.startsWith("group.") ? null : event.spaceId);
    c.afterCommit(afterCommit);
  });

  const sweep = setInterval(() => socket.recheck(), 60_000);
  sweep.unref();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(sweep);
    host.close(1012, "The server is restarting.");
    setRoomHost(core, null);
  };
  core.onClose(stop);
  return { ...socket, host, stop };
}
