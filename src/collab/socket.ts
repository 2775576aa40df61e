/**
 * The collaboration WebSocket, on Bun's own `websocket` handler beside the HTTP pipeline:
 * `/api/collab/<pageId>?token=…` (y-websocket appends the room to the server URL). The token is
 * checked before the upgrade, so a bad one never opens a socket; rights are checked again
 * whenever they may have changed (start.ts), and the socket closes at the token's expiry.
 */
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { personColor } from "../content/person-color";
import type { Core } from "../core";
import { findUserWithRoleById } from "../users/service";
import { CLOSE, roomRefusal, type Refusal } from "./access";
import { Connections, DEFAULT_BOUNDS, type Bounds, type TrackedData } from "./connections";
import type { Peer } from "./room";
import type { RoomConnection, RoomHost } from "./room-host";
import { COLLAB_URL, isCollabPath, SOCKET_SETTINGS } from "./address";
import { verifyCollabToken } from "./token";
import { RefusedChange } from "./update-gate";

/** A sync or awareness message is small; a whole page sent at once stays well under this. */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/**
 * Per connection, a token bucket for messages and one for bytes. Typing fast with carets moving
 * is some tens of messages a second; a pasted page is one big message. Over budget, the
 * connection alone is closed (4429); the room and its other people carry on.
 */
export interface FloodLimits {
  messagesPerSecond: number;
  messageBurst: number;
  bytesPerSecond: number;
  byteBurst: number;
}

export const DEFAULT_FLOOD: FloodLimits = {
  messagesPerSecond: 100,
  messageBurst: 400,
  bytesPerSecond: 1024 * 1024,
  byteBurst: 8 * 1024 * 1024,
};

interface SocketData extends TrackedData {
  pageId: string;
  userId: string;
  /** The account's name, shown beside its caret whatever the editor announces. */
  name: string;
  /** Counted in by Connections (a refused socket never is). */
  admitted: boolean;
  expiresAt: number;
  peer: Peer | null;
  connection: RoomConnection | null;
  expiry: Timer | null;
  messages: number;
  bytes: number;
  refilledAt: number;
}

export type Accepted = { upgraded: true } | { upgraded: false; refusal: Refusal } | { upgraded: false; notWebSocket: true };

export interface CollabSocket {
  /** A request to /api/collab/…: upgraded, or why not (the edge answers the HTTP error). */
  accept(request: Request, server: Server<SocketData>): Accepted;
  websocket: WebSocketHandler<SocketData>;
  /** Closes the connections whose account may no longer edit their page (optionally only some pages). */
  recheck(only?: (pageId: string) => boolean): void;
  /** Checks again, at once, only the connections of one account (suspended, its role changed). */
  recheckAccount(userId: string): void;
}

export { isCollabPath };

export function collabSocket(
  core: Core,
  host: RoomHost,
  flood: FloodLimits = DEFAULT_FLOOD,
  bounds: Bounds = DEFAULT_BOUNDS,
): CollabSocket {
  const now = () => core.clock.now();
  const connections = new Connections<ServerWebSocket<SocketData>>(bounds);

  function closeWith(ws: ServerWebSocket<SocketData>, refusal: { code: number; reason: string }) {
    leave(ws);
    ws.close(refusal.code, refusal.reason);
  }

  function leave(ws: ServerWebSocket<SocketData>) {
    const d = ws.data;
    if (d.admitted) connections.drop(ws);
    d.admitted = false;
    if (d.expiry) clearTimeout(d.expiry);
    d.expiry = null;
    const connection = d.connection;
    d.connection = null;
    connection?.leave();
  }

  /** Refills the buckets for the time gone by; false when this message is over budget. */
  function withinBudget(d: SocketData, size: number): boolean {
    const t = performance.now();
    const seconds = (t - d.refilledAt) / 1000;
    d.refilledAt = t;
    d.messages = Math.min(flood.messageBurst, d.messages + seconds * flood.messagesPerSecond) - 1;
    d.bytes = Math.min(flood.byteBurst, d.bytes + seconds * flood.bytesPerSecond) - size;
    return d.messages >= 0 && d.bytes >= 0;
  }

  const websocket: WebSocketHandler<SocketData> = {
    ...SOCKET_SETTINGS,
    open(ws) {
      const d = ws.data;
      const tooMany = connections.admit(ws);
      if (tooMany) return ws.close(tooMany.code, tooMany.reason);
      d.admitted = true;
      const peer: Peer = {
        userId: d.userId,
        presence: { name: d.name, color: personColor(d.userId) },
        send: (message) => {
          if (connections.beforeSend(ws, message.byteLength)) ws.sendBinary(message);
        },
        sendToOthers: (message) => {
          connections.beforeBroadcast(d.pageId, message.byteLength, ws);
          ws.publishBinary(d.pageId, message);
        },
        close: (code, reason) => closeWith(ws, { code, reason }),
      };
      d.peer = peer;
      // The room's topic: Bun fans a message out to its other sockets natively.
      ws.subscribe(d.pageId);
      try {
        d.connection = host.connect(d.pageId, peer);
      } catch (err) {
        core.log.error("opening a collaboration room failed", {
          pageId: d.pageId,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
        ws.close(1011, "The page could not be opened for editing. Try again later.");
        return;
      }
      d.expiry = setTimeout(() => closeWith(ws, CLOSE.expired), Math.max(0, d.expiresAt - now()));
    },
    message(ws, message) {
      const d = ws.data;
      if (!d.connection) return;
      const bytes = typeof message === "string" ? Buffer.from(message) : message;
      if (bytes.byteLength > MAX_MESSAGE_BYTES)
        return closeWith(ws, { code: 4413, reason: "A change was too large to send. Reload the page to keep editing." });
      if (!withinBudget(d, bytes.byteLength)) return closeWith(ws, CLOSE.flooding);
      try {
        d.connection.receive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } catch (err) {
        // Refused content (update-gate.ts) says why; anything else could not be read.
        if (err instanceof RefusedChange) closeWith(ws, err);
        else closeWith(ws, { code: 4400, reason: "The editor sent a message the server could not read. Reload the page." });
      }
    },
    close(ws) {
      leave(ws);
    },
  };

  return {
    accept(request, server) {
      // A request with a Host the HTTP entry would rebuild must not throw here either.
      const url = URL.parse(request.url, "http://localhost");
      if (!url) return { upgraded: false, refusal: CLOSE.gone };
      let pageId = "";
      try {
        pageId = decodeURIComponent(url.pathname.slice(COLLAB_URL.length + 1));
      } catch {
        // Not percent-encoded properly: no such page.
      }
      const token = url.searchParams.get("token") ?? "";
      if (!pageId || pageId.includes("/")) return { upgraded: false, refusal: CLOSE.gone };
      const check = verifyCollabToken(core.data.secretKey, token, pageId, now());
      if (!check.ok) return { upgraded: false, refusal: CLOSE.expired };
      const refusal = roomRefusal(core, check.claims.userId, pageId);
      if (refusal) return { upgraded: false, refusal };
      const data: SocketData = {
        pageId,
        userId: check.claims.userId,
        name: findUserWithRoleById(core, check.claims.userId)?.user.displayName ?? "",
        admitted: false,
        allowance: 0,
        expiresAt: check.claims.expiresAt,
        peer: null,
        connection: null,
        expiry: null,
        messages: flood.messageBurst,
        bytes: flood.byteBurst,
        refilledAt: performance.now(),
      };
      return server.upgrade(request, { data }) ? { upgraded: true } : { upgraded: false, notWebSocket: true };
    },
    websocket,
    recheck(only) {
      for (const { pageId, peer } of host.peers()) {
        if (only && !only(pageId)) continue;
        const refusal = roomRefusal(core, peer.userId, pageId);
        if (refusal) peer.close(refusal.code, refusal.reason);
      }
    },
    recheckAccount(userId) {
      for (const ws of connections.ofAccount(userId)) {
        const refusal = roomRefusal(core, userId, ws.data.pageId);
        if (refusal) closeWith(ws, refusal);
      }
    },
  };
}
