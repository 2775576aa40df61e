/**
 * One page's room: its Yjs document, the awareness (carets, names) of the people in it, and the
 * y-protocols sync and awareness messages between them, spoken unchanged so that a stock
 * y-websocket WebsocketProvider works against it (message 0 sync, 1 awareness, 3 query
 * awareness; 2 auth is not used: the token is checked before the upgrade).
 */
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";
import { Authorship } from "./authorship";
import { CaretOwner, Carets } from "./carets";
import { checkClientUpdate, MAX_WORKING_COPY_BYTES, REFUSED } from "./update-gate";

const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const MESSAGE_QUERY_AWARENESS = 3;

/** The XML fragment TipTap's Collaboration extension binds to. */
export const FRAGMENT = "default";
/** Room facts every client sees: `version`, the page's current published version number. */
export const META_MAP = "cairn";

/** One connection in a room, whatever carries it (a Bun WebSocket today). */
export interface Peer {
  readonly userId: string;
  /** The account's name and colour, shown beside its caret (the client's own say is overwritten). */
  readonly presence?: { readonly name: string; readonly color: string };
  send(message: Uint8Array): void;
  /**
   * Sends to every other peer of its room in one call, when the transport fans out natively
   * (Bun's publish: one call instead of one per peer, and a socket's messages of one turn of
   * the event loop go out in one write). A room's peers then all share that transport.
   */
  sendToOthers?(message: Uint8Array): void;
  close(code: number, reason: string): void;
}

/** Changes the server makes (seeding, tracked changes, the version number) carry this origin. */
export const SERVER_ORIGIN = Symbol("cairn-server");

export class Room {
  readonly carets = new Carets();
  /** Each peer with its side of the awareness (the client ids it announced go when it leaves). */
  readonly peers = new Map<Peer, CaretOwner>();
  private readonly meta: Y.Map<unknown>;
  /** Who has unpublished changes here (authorship.ts). */
  readonly authorship: Authorship;

  constructor(
    readonly pageId: string,
    readonly doc: Y.Doc,
    /** Called after every change to the document, from a peer or from the server. */
    private readonly changed: () => void,
  ) {
    this.meta = doc.getMap(META_MAP);
    this.authorship = new Authorship(this.fragment);
    doc.on("afterTransaction", this.onTransaction);
  }

  get version(): number {
    return (this.meta.get("version") as number | undefined) ?? 0;
  }

  setVersion(version: number): void {
    if (this.version === version) return;
    this.doc.transact(() => this.meta.set("version", version), SERVER_ORIGIN);
    // A new published version: the working copy may equal it now.
    this.authorship.unchecked = true;
  }

  get fragment(): Y.XmlFragment {
    return this.doc.getXmlFragment(FRAGMENT);
  }

  /** A new connection: our state vector (sync step 1) and everyone's carets. */
  join(peer: Peer): void {
    this.peers.set(peer, new CaretOwner({ id: peer.userId, name: peer.presence?.name ?? "", color: peer.presence?.color ?? "" }));
    this.authorship.follow(peer.userId, peer);
    const sync = encoding.createEncoder();
    encoding.writeVarUint(sync, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(sync, this.doc);
    peer.send(encoding.toUint8Array(sync));
    const everyone = this.carets.snapshot();
    if (everyone) peer.send(awarenessMessage(everyone));
  }

  /** One message from a peer; throws on a malformed one (the socket closes that peer). */
  receive(peer: Peer, message: Uint8Array): void {
    const decoder = decoding.createDecoder(message);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_SYNC) {
      const syncType = decoding.readVarUint(decoder);
      if (syncType === syncProtocol.messageYjsSyncStep1) {
        // Step 1 is answered with step 2; steps 2 and updates need no answer.
        const reply = encoding.createEncoder();
        encoding.writeVarUint(reply, MESSAGE_SYNC);
        syncProtocol.readSyncStep1(decoder, reply, this.doc);
        peer.send(encoding.toUint8Array(reply));
        return;
      }
      if (syncType !== syncProtocol.messageYjsSyncStep2 && syncType !== syncProtocol.messageYjsUpdate)
        throw new Error("unknown sync message");
      this.applyClientUpdate(peer, decoding.readVarUint8Array(decoder));
      // A change goes on to the others as it came (Yjs updates are idempotent): re-encoding it
      // from the transaction would cost the server as much again. An empty one (2 bytes of
      // update, a client with nothing new) goes nowhere.
      if (message.length > 5) {
        const update = syncType === syncProtocol.messageYjsUpdate ? message : Uint8Array.from(message);
        update[1] = syncProtocol.messageYjsUpdate;
        this.broadcast(update, peer);
      }
    } else if (type === MESSAGE_AWARENESS) {
      const owner = this.peers.get(peer);
      const update = owner && this.carets.apply(owner, decoding.readVarUint8Array(decoder), Date.now());
      // What was accepted, with the account's own name; back to the sender too only when it is
      // alone (y-websocket reconnects after 30 s without hearing anything, and the renewal every
      // 15 s is that).
      if (update) this.broadcast(awarenessMessage(update), this.peers.size === 1 ? null : peer);
    } else if (type === MESSAGE_QUERY_AWARENESS) {
      const everyone = this.carets.snapshot();
      if (everyone) peer.send(awarenessMessage(everyone));
    }
    // Anything else (auth, unknown types) is ignored, as y-websocket's own server does.
  }

  /** The working copy's encoded size as last measured, plus what was applied since (update-gate.ts). */
  private workingBytes: number | null = null;
  private measured = { bytes: 0, at: 0 };

  /**
   * A client's update, checked before anything of it is kept (update-gate.ts): throws a
   * RefusedChange for content outside the page's text or past the working copy's bound. The size
   * is counted from the updates applied and measured again (a full encoding) only when the
   * count nears the bound, so typing never pays for it.
   */
  private applyClientUpdate(peer: Peer, update: Uint8Array): void {
    checkClientUpdate(this.doc, update, { fragment: FRAGMENT, meta: META_MAP });
    if (this.workingBytes === null || this.workingBytes + update.byteLength > MAX_WORKING_COPY_BYTES) {
      // The count overlaps (a reconnect sends some updates again), misses the server's own
      // changes and deletions that shrank the copy: it is measured again before refusing, but
      // at most once a second or per 64 KB applied, so a client at the bound cannot make every
      // message cost a full encoding.
      const now = performance.now();
      if (this.workingBytes === null || this.workingBytes - this.measured.bytes > 64 * 1024 || now - this.measured.at > 1000) {
        this.workingBytes = Y.encodeStateAsUpdate(this.doc).byteLength;
        this.measured = { bytes: this.workingBytes, at: now };
      }
      if (this.workingBytes + update.byteLength > MAX_WORKING_COPY_BYTES) throw REFUSED.tooLarge;
    }
    Y.applyUpdate(this.doc, update, peer);
    this.workingBytes += update.byteLength;
  }

  leave(peer: Peer): void {
    const owner = this.peers.get(peer);
    if (!owner) return;
    this.peers.delete(peer);
    this.authorship.unfollow(peer.userId, peer);
    // Its carets go at once rather than after the 30 s awareness time-out, and are forgotten.
    const update = this.carets.forget(owner, Date.now());
    if (update) this.broadcast(awarenessMessage(update), null);
  }

  destroy(): void {
    this.doc.off("afterTransaction", this.onTransaction);
    this.authorship.destroy();
    this.doc.destroy();
  }

  /** Sends a message to every peer but one (null: to all). */
  private broadcast(message: Uint8Array, except: Peer | null): void {
    const via = except ?? this.peers.keys().next().value;
    if (via?.sendToOthers) {
      via.sendToOthers(message);
      if (!except) via.send(message);
      return;
    }
    for (const peer of this.peers.keys()) if (peer !== except) peer.send(message);
  }

  /**
   * Drops the carets of peers silent for 30 s (a client renews its own every 15 s). The host
   * runs this for all its rooms from one timer, rather than one timer per room as y-protocols
   * would (an idle room then costs no wake-ups).
   */
  expireAwareness(nowMs: number): void {
    const stale = this.carets.stale(nowMs);
    if (stale.length === 0) return;
    const update = this.carets.remove(stale, nowMs);
    if (update) this.broadcast(awarenessMessage(update), null);
  }

  private readonly onTransaction = (tr: Y.Transaction) => {
    if (tr.deleteSet.clients.size === 0 && sameState(tr.beforeState, tr.afterState)) return;
    // A peer's change was forwarded by receive(); the server's own (seeding, tracked changes,
    // the version number) is encoded here, from the state before it.
    if (!this.peers.has(tr.origin as Peer)) {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      syncProtocol.writeUpdate(encoder, Y.encodeStateAsUpdate(this.doc, Y.encodeStateVector(tr.beforeState)));
      this.broadcast(encoding.toUint8Array(encoder), null);
    }
    // The document itself changed (not only the version number): whoever sent it has
    // unpublished changes, and the working copy may no longer equal the published version.
    if (this.touchesDocument(tr)) {
      this.authorship.unchecked = true;
      if (this.peers.has(tr.origin as Peer)) this.authorship.record((tr.origin as Peer).userId, Date.now());
    }
    this.changed();
  };

  private touchesDocument(tr: Y.Transaction): boolean {
    for (const type of tr.changed.keys()) if (type !== (this.meta as unknown)) return true;
    return false;
  }
}

function sameState(a: Map<number, number>, b: Map<number, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [client, clock] of a) if (b.get(client) !== clock) return false;
  return true;
}

function awarenessMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}
