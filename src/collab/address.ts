import type { WebSocketHandler } from "bun";

/**
 * Where the collaboration WebSocket answers and the settings Bun's handler takes, apart from the
 * rooms: the server listens before collaboration is loaded (server.ts) and needs both at once.
 */
export const COLLAB_URL = "/api/collab";

export const isCollabPath = (path: string) => path === COLLAB_URL || path.startsWith(`${COLLAB_URL}/`);

/** What Bun itself buffers at most before it drops a connection (1009). */
const HARD_PAYLOAD_LIMIT = 16 * 1024 * 1024;

export const SOCKET_SETTINGS = {
  maxPayloadLength: HARD_PAYLOAD_LIMIT,
  // A slow reader is cut by Connections (connections.ts), well before Bun's own limit; this
  // stays as the last resort.
  backpressureLimit: 8 * 1024 * 1024,
  closeOnBackpressureLimit: true,
  perMessageDeflate: false,
  // Bun pings idle sockets; y-websocket also hears the awareness renewals every 15 s.
  idleTimeout: 120,
  sendPings: true,
} satisfies Partial<WebSocketHandler<unknown>>;
