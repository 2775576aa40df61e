/**
 * A page's live room: the Yjs document kept in IndexedDB (edits made offline survive a closed
 * tab and merge when the connection is back) and joined over y-websocket with a short-lived
 * token that is renewed before it expires. The room's state (connection, who is here, the
 * published version, whether the server has our edits) is one snapshot React subscribes to.
 */
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { IndexeddbPersistence } from "y-indexeddb";
import { messageYjsSyncStep2, writeSyncStep1 } from "y-protocols/sync";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";
import { ApiError } from "../../api/client";
import { closeSentence, fetchCollabToken, type CollabToken } from "./collab-token";

export { fetchCollabToken, type CollabToken };

export interface Peer {
  clientId: number;
  id: string;
  name: string;
  color: string;
}

export type Connection = "connecting" | "connected" | "reconnecting" | "offline" | "closed";

export interface RoomState {
  connection: Connection;
  /** Why the server closed the room for us (4xxx close reason), when it did. */
  closedReason: string | null;
  closeCode: number | null;
  /** Everyone else in the page now, one entry per person. */
  peers: Peer[];
  /** The published version the room's document starts from (the next Update's baseVersion). */
  version: number | null;
  /** Local edits the server may not have yet (made offline, or still being sent). */
  pending: boolean;
}

/** Close codes of a change the server refused (src/collab/update-gate.ts). */
const REFUSED_CHANGE = new Set([4409, 4413, 4415]);

const wsUrl = (url: string) => new URL(url, location.origin).href.replace(/^http/, "ws");
/** A drop shorter than this reads "Reconnecting…"; longer, the offline sentence. */
const RECONNECTING_GRACE_MS = 5000;

export class CollabRoom {
  readonly doc = new Y.Doc();
  readonly provider: WebsocketProvider;
  private readonly store: IndexeddbPersistence;
  private state: RoomState = { connection: "connecting", closedReason: null, closeCode: null, peers: [], version: null, pending: false };
  private readonly listeners = new Set<() => void>();
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private ackTimer: ReturnType<typeof setTimeout> | undefined;
  private everConnected = false;
  private lastTokenRetry = 0;
  private destroyed = false;
  private localDropped = false;

  constructor(
    readonly pageId: string,
    private token: CollabToken,
    readonly user: { id: string; name: string; color: string },
  ) {
    this.store = new IndexeddbPersistence(`cairn.page.${pageId}`, this.doc);
    this.provider = new WebsocketProvider(wsUrl(token.url), token.documentName, this.doc, {
      connect: false,
      params: { token: token.token },
      disableBc: true,
    });
    this.provider.awareness.setLocalStateField("user", user);
    this.provider.on("status", () => this.onConnection());
    this.provider.on("sync", (synced: boolean) => {
      if (synced) this.checkAcknowledged();
      this.onConnection();
    });
    this.provider.on("closed", (event: { code: number; reason: string }) => void this.onClosed(event));
    // The server refuses the upgrade of an expired token (no 4401 then): renew it before retrying.
    this.provider.on("connection-close", () => void this.renewIfStale());
    this.provider.awareness.on("change", () => this.set({ peers: this.readPeers() }));
    const meta = this.doc.getMap("cairn");
    meta.observe(() => this.set({ version: readVersion(meta) }));
    this.doc.on("update", (_update: Uint8Array, origin: unknown) => {
      // Our own typing (not the server's answer, not the copy read back from IndexedDB).
      if (origin === this.provider || origin === this.store) return;
      if (!this.state.pending) this.set({ pending: true });
      this.checkAcknowledged();
    });
    addEventListener("offline", this.goOffline);
    addEventListener("online", this.goOnline);
    this.scheduleRenewal();
  }

  /** Reads the copy kept on this device, then joins the room. */
  async open(): Promise<void> {
    await this.store.whenSynced;
    if (this.destroyed) return;
    this.set({ version: readVersion(this.doc.getMap("cairn")) });
    if (navigator.onLine) this.provider.connect();
    else this.set({ connection: "offline" });
  }

  /** Resolves true once the document is there to edit (from the server, or kept on this device). */
  ready(timeoutMs: number): Promise<boolean> {
    if (this.provider.synced || this.hasContent()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.provider.off("sync", onSync);
        this.provider.off("connection-close", onRefused);
        unsubscribe();
        resolve(ok);
      };
      const onSync = (synced: boolean) => synced && done(true);
      const unsubscribe = this.subscribe(() => this.state.connection === "closed" && done(false));
      // Refused outright (a proxy without WebSockets, the upgrade denied): no need to wait it out.
      const onRefused = () => this.provider.wsUnsuccessfulReconnects >= 3 && !this.provider.synced && done(this.hasContent());
      this.provider.on("connection-close", onRefused);
      const timer = setTimeout(() => done(this.hasContent()), timeoutMs);
      this.provider.on("sync", onSync);
    });
  }

  hasContent(): boolean {
    return this.doc.getXmlFragment("default").length > 0;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): RoomState => this.state;

  /**
   * Resolves once the server has applied everything we sent: it answers a sync request after
   * the updates before it (one socket, in order), so a publish right after typing takes it all.
   */
  flush(timeoutMs = 3000): Promise<void> {
    const p = this.provider;
    if (!p.wsconnected || !p.ws) return Promise.resolve();
    return new Promise((resolve) => {
      const original = p.messageHandlers[0]!;
      const done = () => {
        clearTimeout(timer);
        p.messageHandlers[0] = original;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      p.messageHandlers[0] = (encoder, decoder, provider, emitSynced, messageType) => {
        const answer = decoding.peekVarUint(decoder) === messageYjsSyncStep2;
        original(encoder, decoder, provider, emitSynced, messageType);
        if (answer) done();
      };
      const request = encoding.createEncoder();
      encoding.writeVarUint(request, 0);
      writeSyncStep1(request, this.doc);
      p.ws!.send(encoding.toUint8Array(request));
    });
  }

  /** Tries again after the server closed the room (e.g. after a flood pause). */
  async reconnect(): Promise<void> {
    await this.renewToken();
    this.provider.connect();
  }

  /**
   * Leaves the room. The copy on this device is dropped when the server has everything, so the
   * next visit starts from the room; unsent edits stay to be merged next time.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    clearTimeout(this.renewTimer);
    clearTimeout(this.graceTimer);
    clearTimeout(this.ackTimer);
    removeEventListener("offline", this.goOffline);
    removeEventListener("online", this.goOnline);
    const keepLocal = this.state.pending || !this.provider.synced;
    this.provider.destroy();
    if (this.localDropped) {
      // Already cleared when the server refused a change.
    } else if (keepLocal) void this.store.destroy();
    else void this.store.clearData();
    this.doc.destroy();
  }

  private set(patch: Partial<RoomState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  private onConnection(): void {
    if (this.state.connection === "closed" && !this.provider.shouldConnect) return;
    const p = this.provider;
    if (p.wsconnected && p.synced) {
      this.everConnected = true;
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      this.set({ connection: "connected", closedReason: null, closeCode: null });
    } else if (!navigator.onLine) {
      this.set({ connection: "offline" });
    } else if (!this.everConnected) {
      this.set({ connection: "connecting" });
    } else if (this.state.connection === "connected") {
      this.set({ connection: "reconnecting" });
      this.graceTimer = setTimeout(
        () => this.state.connection === "reconnecting" && this.set({ connection: "offline" }),
        RECONNECTING_GRACE_MS,
      );
    }
  }

  private async onClosed(event: { code: number; reason: string }): Promise<void> {
    // An expired token is renewed once and the room joined again, unseen.
    if (event.code === 4401 && Date.now() - this.lastTokenRetry > 10_000) {
      this.lastTokenRetry = Date.now();
      try {
        await this.renewToken();
        if (!this.destroyed) this.provider.connect();
        return;
      } catch {
        // Fall through: say why the room closed.
      }
    }
    // A change the server refused (not the page's text, past its size): the copy on this device
    // holds it and would send it again on every visit, so the next one starts from the room.
    if (REFUSED_CHANGE.has(event.code) && !this.localDropped) {
      this.localDropped = true;
      void this.store.clearData();
    }
    this.set({ connection: "closed", closeCode: event.code, closedReason: event.reason || closeSentence(event.code) });
  }

  /** Our edits count as delivered once the room is synced and the socket has sent them. */
  private checkAcknowledged(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = setTimeout(() => {
      const p = this.provider;
      if (p.wsconnected && p.synced && (p.ws?.bufferedAmount ?? 1) === 0) this.set({ pending: false });
      else if (this.state.pending && p.wsconnected) this.checkAcknowledged();
    }, 400);
  }

  private readPeers(): Peer[] {
    const byPerson = new Map<string, Peer>();
    for (const [clientId, value] of this.provider.awareness.getStates()) {
      const user = (value as { user?: Partial<Peer> }).user;
      if (clientId === this.doc.clientID || !user?.name) continue;
      const id = user.id ?? String(clientId);
      if (id === this.user.id || byPerson.has(id)) continue;
      byPerson.set(id, { clientId, id, name: user.name, color: user.color ?? "#5b5f66" });
    }
    return [...byPerson.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  private goOffline = () => {
    clearTimeout(this.graceTimer);
    // The browser says the network is gone: close the socket now rather than wait for its
    // watchdog (30 s without a message), so the status and the edits' fate are honest.
    this.provider.disconnect();
    if (this.state.connection !== "closed") this.set({ connection: "offline" });
  };

  private goOnline = () => {
    if (this.state.connection === "closed") return;
    void this.renewToken()
      .catch(() => undefined)
      .then(() => !this.destroyed && this.provider.connect());
  };

  private scheduleRenewal(): void {
    clearTimeout(this.renewTimer);
    const life = Date.parse(this.token.expiresAt) - Date.now();
    if (!Number.isFinite(life)) return;
    // At 80% of its life, so a reconnect never presents an expired token.
    this.renewTimer = setTimeout(
      () =>
        void this.renewToken()
          .then(() => {
            if (this.provider.wsconnected) {
              this.provider.disconnect();
              this.provider.connect();
            }
          })
          .catch(() => this.scheduleRenewal()),
      Math.max(5_000, life * 0.8),
    );
  }

  private async renewIfStale(): Promise<void> {
    if (this.destroyed || Date.parse(this.token.expiresAt) - Date.now() > 60_000 || Date.now() - this.lastTokenRetry < 10_000) return;
    this.lastTokenRetry = Date.now();
    try {
      await this.renewToken();
    } catch (err) {
      // No longer allowed to edit (403) or the page is gone (404): stop trying, say why.
      if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
        this.provider.disconnect();
        this.set({ connection: "closed", closeCode: 4400 + (err.status - 400), closedReason: closeSentence(4400 + (err.status - 400)) });
      }
    }
  }

  private async renewToken(): Promise<void> {
    const next = await fetchCollabToken(this.pageId);
    if (this.destroyed) return;
    this.token = next;
    this.provider.params = { ...this.provider.params, token: next.token };
    this.scheduleRenewal();
  }
}

function readVersion(meta: Y.Map<unknown>): number | null {
  const v = meta.get("version");
  return typeof v === "number" ? v : null;
}
