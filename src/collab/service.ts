/**
 * Real-time collaboration (docs/decisions.md, "Real-time collaboration"): tokens for the editor,
 * and how a page's room is loaded, saved and kept in step with the page's published versions. The
 * WebSocket side is socket.ts; start.ts wires both into the server.
 */
import type { JSONContent } from "@tiptap/core";
import * as Y from "yjs";
import { requireEditablePage } from "../access/pages";
import { checkContentJson } from "../content/validate";
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { findPage } from "../pages/store";
import { replaceRoomContent, roomContent, seedFragment } from "./content";
import { loadAuthors, loadDocument, saveDocuments, versionContent } from "./store";
import { FRAGMENT, META_MAP, Room, SERVER_ORIGIN } from "./room";
import { scrubStoredCopy } from "./scrub";
import type { RoomHost, RoomStorage } from "./room-host";
import { signCollabToken, TOKEN_LIFETIME_MS } from "./token";
import { COLLAB_URL } from "./address";

export { COLLAB_URL };

export interface CollabToken {
  token: string;
  documentName: string;
  url: string;
  expiresAt: string;
  enabled: boolean;
}

/** GET /api/pages/{id}/collab-token: only for callers who may edit the page now. */
export function issueCollabToken(core: Core, caller: Caller, pageId: string): CollabToken {
  const { page } = requireEditablePage(core, caller, findPage(core, pageId));
  const userId = caller.kind === "user" ? caller.user.id : "";
  const expiresAt = core.clock.now() + TOKEN_LIFETIME_MS;
  return {
    token: signCollabToken(core.data.secretKey, { userId, pageId: page.id, expiresAt }),
    documentName: page.id,
    url: COLLAB_URL,
    expiresAt: iso(expiresAt),
    enabled: true,
  };
}

/** Rooms loaded from and saved to collab_documents. */
export function roomStorage(core: Core, external: ExternalChange): RoomStorage {
  return {
    load(pageId, changed) {
      const found = findPage(core, pageId);
      if (!found) throw new Error(`page ${pageId} not found`);
      const room = new Room(pageId, new Y.Doc(), changed);
      const stored = loadDocument(core, pageId);
      if (!stored) {
        seedFragment(room.doc, room.fragment, JSON.parse(found.page.contentJson) as JSONContent);
        room.setVersion(found.page.currentVersion);
        return room;
      }
      Y.applyUpdate(room.doc, stored.state, SERVER_ORIGIN);
      // A copy stored before rooms checked what they accept keeps only the page's text.
      scrubStoredCopy(room.doc, { fragment: FRAGMENT, meta: META_MAP }, SERVER_ORIGIN);
      room.authorship.restore(loadAuthors(core, pageId));
      catchUp(core, room, external);
      return room;
    },
    save(rooms) {
      // The last one out: a list that may have gone stale (typing undone by hand) is checked
      // against the published version before it is stored for the reading view.
      for (const room of rooms) if (room.peers.size === 0 && room.authorship.unchecked) settleAuthors(core, room);
      // One transaction (one commit) for every room due.
      saveDocuments(
        core,
        rooms.map((room) => ({
          pageId: room.pageId,
          state: Y.encodeStateAsUpdate(room.doc),
          version: room.version,
          ...(room.authorship.dirty ? { authors: room.authorship.list() } : {}),
        })),
      );
      for (const room of rooms) room.authorship.dirty = false;
    },
  };
}

/** How a change from outside reaches a working copy that holds edits of its own (external.ts). */
export type ExternalChange = (room: Room, incoming: { content: JSONContent; version: number; authorId: string | null; at: number }) => void;

/**
 * The page got new versions while nobody had it open (its room stored, or loaded with nobody
 * in it). A working copy that still equals the
 * version it was last brought to holds nothing unpublished: it simply becomes the current
 * version. One with unpublished edits gets the news as tracked changes, like an open room.
 * Either way the Yjs document is changed, never replaced: a client that kept its copy offline
 * (y-indexeddb) merges into it instead of doubling the page.
 */
export function catchUp(core: Core, room: Room, external: ExternalChange): void {
  const found = findPage(core, room.pageId);
  if (!found || found.page.currentVersion <= room.version) return;
  const { contentJson, currentVersion: version, updatedById: authorId } = found.page;
  const base = versionContent(core, room.pageId, room.version);
  const incoming = JSON.parse(contentJson) as JSONContent;
  if (base && sameDocument(roomContent(room), base.contentJson)) {
    replaceRoomContent(room, incoming);
    room.setVersion(version);
  } else {
    external(room, { content: incoming, version, authorId, at: core.clock.now() });
  }
}

/**
 * Empties the list of unpublished authors when the working copy equals the published version
 * again (all typing undone, a change from outside that already held it, tracked changes all
 * accepted). Compared only when the document changed since the last check and someone is
 * listed; `publishedJson` saves reading the page again when the caller has it.
 */
export function settleAuthors(core: Core, room: Room, publishedJson?: string): void {
  const authorship = room.authorship;
  if (!authorship.unchecked) return;
  if (authorship.size === 0) {
    authorship.unchecked = false;
    return;
  }
  const published = publishedJson ?? findPage(core, room.pageId)?.page;
  const json =
    typeof published === "string" ? published : published && published.currentVersion === room.version ? published.contentJson : null;
  // A room behind the page's version is brought up to date first (followVersions, catchUp).
  if (json === null) return;
  authorship.unchecked = false;
  if (sameDocument(roomContent(room), json)) authorship.clear();
}

/** Equal once both are put in the stored form (the schema's defaults, joined text). */
export function sameDocument(content: JSONContent, storedJson: string): boolean {
  try {
    return checkContentJson(JSON.stringify(content)).json === storedJson;
  } catch {
    return false;
  }
}

/** The host of one instance's rooms, once the server has started collaboration (start.ts). */
const hosts = new WeakMap<Core, RoomHost>();

export function setRoomHost(core: Core, host: RoomHost | null): void {
  if (host) hosts.set(core, host);
  else hosts.delete(core);
}

export function roomHostOf(core: Core): RoomHost | undefined {
  return hosts.get(core);
}
