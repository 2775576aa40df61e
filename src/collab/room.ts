/**
 * One page's room: its Yjs document, the awareness (carets, names) of the people in it, and the
 * y-protocols sync and awareness messages between them, spoken unchanged so that a stock
 * y-websocket WebsocketProvider works against it (message 0 sync, 1 awareness, 3 query
 * awareness; 2 auth is not used: the token is checked before the upgrade).
 */
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import * as awarenessProtocol from "y-protocols/awareness";
import * as syncProtocol from "y-protocols/sync";
import * as Y from "yjs";

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
  send(message: Uint8Array): void;
  close(code: number, reason: string): void;
}

/** Changes the server makes (seeding, tracked changes, the version number) carry this origin. */
export const SERVER_ORIGIN = Symbol("cairn-server");

export class Room {
  readonly awareness: awarenessProtocol.Awareness;
  /** Each peer with the awareness client ids it announced (removed when it leaves). */
  readonly peers = new Map<Peer, Set<number>>();

  constructor(
    readonly pageId: string,
    readonly doc: Y.Doc,
    /** Called after every change to the document, from a peer or from the server. */
    private readonly changed: () => void,
  ) {
    this.awareness = new awarenessProtocol.Awareness(doc);
    // The server is no participant: it has no caret of its own.
    this.awareness.setLocalState(null);
    doc.on("update", this.onUpdate);
    this.awareness.on("update", this.onAwareness);
  }

  get version(): number {
    return (this.doc.getMap(META_MAP).get("version") as number | undefined) ?? 0;
  }

  setVersion(version: number): void {
    if (this.version !== version) this.doc.transact(() => this.doc.getMap(META_MAP).set("version", version), SERVER_ORIGIN);
  }

  get fragment(): Y.XmlFragment {
    return this.doc.getXmlFragment(FRAGMENT);
  }

  /** A new connection: our state vector (sync step 1) and everyone's carets. */
  join(peer: Peer): void {
    this.peers.set(peer, new Set());
    const sync = encoding.createEncoder();
    encoding.writeVarUint(sync, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(sync, this.doc);
    peer.send(encoding.toUint8Array(sync));
    const states = this.awareness.getStates();
    if (states.size > 0) peer.send(awarenessMessage(this.awareness, [...states.keys()]));
  }

  /** One message from a peer; throws on a malformed one (the socket closes that peer). */
  receive(peer: Peer, message: Uint8Array): void {
    const decoder = decoding.createDecoder(message);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_SYNC) {
      const reply = encoding.createEncoder();
      encoding.writeVarUint(reply, MESSAGE_SYNC);
      syncProtocol.readSyncMessage(decoder, reply, this.doc, peer);
      // Step 1 is answered with step 2; steps 2 and updates need no answer.
      if (encoding.length(reply) > 1) peer.send(encoding.toUint8Array(reply));
    } else if (type === MESSAGE_AWARENESS) {
      awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), peer);
    } else if (type === MESSAGE_QUERY_AWARENESS) {
      peer.send(awarenessMessage(this.awareness, [...this.awareness.getStates().keys()]));
    }
    // Anything else (auth, unknown types) is ignored, as y-websocket's own server does.
  }

  leave(peer: Peer): void {
    const ids = this.peers.get(peer);
    if (!ids) return;
    this.peers.delete(peer);
    // Its carets go at once rather than after the 30 s awareness time-out.
    if (ids.size > 0) awarenessProtocol.removeAwarenessStates(this.awareness, [...ids], null);
  }

  destroy(): void {
    this.doc.off("update", this.onUpdate);
    this.awareness.off("update", this.onAwareness);
    this.awareness.destroy();
    this.doc.destroy();
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown) => {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeUpdate(encoder, update);
    const message = encoding.toUint8Array(encoder);
    // The sender has it already.
    for (const peer of this.peers.keys()) if (peer !== origin) peer.send(message);
    this.changed();
  };

  private readonly onAwareness = ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
    const ids = origin ? this.peers.get(origin as Peer) : undefined;
    if (ids) {
      for (const id of added) ids.add(id);
      for (const id of removed) ids.delete(id);
    }
    const changedIds = [...added, ...updated, ...removed];
    if (changedIds.length === 0) return;
    // To everyone, the sender too: y-websocket reconnects after 30 s without a message, and a
    // lone editor's own renewed awareness (every 15 s) is what it hears back.
    const message = awarenessMessage(this.awareness, changedIds);
    for (const peer of this.peers.keys()) peer.send(message);
  };
}

function awarenessMessage(awareness: awarenessProtocol.Awareness, ids: number[]): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(awareness, ids));
  return encoding.toUint8Array(encoder);
}
