/**
 * Collaboration in the server: the room host, the WebSocket, and what makes a room follow the
 * rest of Cairn, always after the commit (the change is committed first): a page's new version
 * reaches its loaded room (external.ts), and connections whose account may no longer edit
 * their page are closed. A sweep re-checks every connection each minute too, for rights that
 * change without an event of their own.
 */
import type { JSONContent } from "@tiptap/core";
import type { Core } from "../core";
import { onEventRecorded, type EventRow } from "../events/outbox";
import { findPage, findPageMeta } from "../pages/store";
import { applyExternalChange } from "./external";
import { DEFAULT_TIMING, InProcessRoomHost, type HostTiming, type RoomHost } from "./room-host";
import { pageVersions } from "./store";
import { catchUp, roomStorage, setRoomHost } from "./service";
import type { Bounds } from "./connections";
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

/** Events about one account (the target) after which its own connections are checked again. */
const ACCOUNT_EVENTS = new Set(["user.suspended", "user.role_changed"]);

export interface CollabOptions {
  timing?: HostTiming;
  flood?: FloodLimits;
  /** Sockets per account and per room, and what they may buffer (tests lower them). */
  bounds?: Bounds;
  /** How often every connection's rights are checked again (tests shorten it). */
  sweepMs?: number;
}

export function startCollab(core: Core, opts: CollabOptions = {}): Collab {
  const onError = (what: string, err: unknown) =>
    core.log.error(what, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  const host = new InProcessRoomHost(roomStorage(core, applyExternalChange), opts.timing ?? DEFAULT_TIMING, onError);
  setRoomHost(core, host);
  const socket = collabSocket(core, host, opts.flood, opts.bounds);

  // New versions: after every commit while rooms are loaded, one statement compares their
  // versions with the pages'. That sees every way a document changes (the API, a restore, a
  // draft saved or published, an import) without each having to announce it.
  let seenStamp = "";
  const followVersions = () => {
    // Only bookkeeping committed (working copies saved, sessions slid): no page changed.
    const stamp = core.stamp.current();
    if (stamp === seenStamp) return;
    seenStamp = stamp;
    const loaded = host.loadedPageIds();
    if (loaded.length === 0) return;
    for (const { id, version } of pageVersions(core, loaded)) {
      try {
        host.withLoadedRoom(id, (room) => {
          if (version <= room.version) return;
          // Nobody in it: as for a stored room, an untouched working copy simply follows.
          if (room.peers.size === 0) return catchUp(core, room, applyExternalChange);
          const found = findPage(core, id)!;
          const content = JSON.parse(found.page.contentJson) as JSONContent;
          applyExternalChange(room, {
            content,
            version: found.page.currentVersion,
            authorId: found.page.updatedById,
            at: core.clock.now(),
          });
        });
      } catch (err) {
        onError("bringing a collaborative document up to date failed", err);
      }
    }
  };
  core.beforeCommit(() => {
    if (host.loadedPageIds().length > 0) core.afterCommit(followVersions);
  });

  // Rights: after a commit that recorded an event that may take them away, the connections of
  // that space (or of every space) are checked again.
  const recheckSpaces = new Set<string | null>();
  const recheck = () => {
    if (recheckSpaces.size === 0) return;
    const spaces = new Set(recheckSpaces);
    recheckSpaces.clear();
    socket.recheck(
      spaces.has(null)
        ? undefined
        : (pageId) => {
            const found = findPageMeta(core, pageId);
            return !found || spaces.has(found.space.id);
          },
    );
  };
  // An account suspended or given another role: its own connections, at once after the commit
  // (the sweep would take up to a minute).
  const recheckAccounts = new Set<string>();
  const recheckAccount = () => {
    const ids = [...recheckAccounts];
    recheckAccounts.clear();
    for (const id of ids) socket.recheckAccount(id);
  };
  onEventRecorded(core, (c, event: EventRow) => {
    if (ACCOUNT_EVENTS.has(event.type) && event.targetId && host.stats().peers > 0) {
      recheckAccounts.add(event.targetId);
      c.afterCommit(recheckAccount);
      return;
    }
    if (!RIGHTS_EVENTS.has(event.type) || host.stats().peers === 0) return;
    recheckSpaces.add(event.type.startsWith("user.") || event.type.startsWith("group.") ? null : event.spaceId);
    c.afterCommit(recheck);
  });

  // A restore: every room is saved and closed before the data is replaced (editors reconnect
  // once it is over and load the restored pages); none stays loaded over the new data.
  core.maintenance.onEnter(() => host.closeRooms(1012, "Cairn is restoring a backup."));
  core.onDataReplaced(() => host.closeRooms(1012, "Cairn restored a backup."));

  const sweep = core.scheduler.every("collab.recheck", opts.sweepMs ?? 60_000, () => socket.recheck());
  // One task for the carets of every room (Room.expireAwareness).
  const carets = core.scheduler.every("collab.carets", 5_000, () => host.expireAwareness(Date.now()));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    sweep.stop();
    carets.stop();
    host.close(1012, "The server is restarting.");
    setRoomHost(core, null);
  };
  core.onClose(stop);
  return { ...socket, host, stop };
}
