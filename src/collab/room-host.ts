/**
 * Where rooms live. Today one process holds them all (InProcessRoomHost); a deployment with
 * several processes would give each page's room one owner and have the others forward a
 * connection's messages to it. Everything outside this file reaches rooms only through this
 * interface: a connection joins with connect(), and server-side edits (publishing, changes
 * from outside) run on the owner's loaded room through withLoadedRoom().
 */
import { Room, type Peer } from "./room";

export interface RoomConnection {
  /** One message from the peer (throws on a malformed one). */
  receive(message: Uint8Array): void;
  leave(): void;
}

export interface RoomHost {
  /** Joins a peer to the page's room, loading (or seeding) the room first if needed. */
  connect(pageId: string, peer: Peer): RoomConnection;
  /** Runs fn on the page's room if it is loaded; undefined otherwise (nobody has it open). */
  withLoadedRoom<T>(pageId: string, fn: (room: Room) => T): T | undefined;
  /** The pages whose rooms are loaded here. */
  loadedPageIds(): string[];
  /** Every connected peer, with its page (rights re-checks). */
  peers(): Array<{ pageId: string; peer: Peer }>;
  /** Saves every room with unsaved changes now. */
  flush(): void;
  /** Closes every connection with `code` (clients reconnect after 1012), saves and unloads every room. */
  close(code: number, reason: string): void;
  /** As close(), but the host goes on (a restore: rooms load again from the restored data). */
  closeRooms(code: number, reason: string): void;
  stats(): { rooms: number; peers: number };
  /** Drops the carets of peers silent too long, in every room (the server's scheduler calls it every few seconds). */
  expireAwareness(now: number): void;
}

export interface RoomStorage {
  /** A page's room, from its stored working copy or seeded from its current version. */
  load(pageId: string, changed: () => void): Room;
  /** Saves these rooms' working copies, all in one transaction. */
  save(rooms: Room[]): void;
}

export interface HostTiming {
  /** Changes are saved at most this long after they arrive while people type. */
  saveDelayMs: number;
  /** A room nobody is in is unloaded from memory after this long. */
  idleMs: number;
}

export const DEFAULT_TIMING: HostTiming = { saveDelayMs: 2_000, idleMs: 30_000 };

/** Rooms saved per turn of the event loop (and per commit) when many are due at once. */
const SAVE_SLICE = 4;

interface Loaded {
  pageId: string;
  room: Room;
  dirty: boolean;
  unloadTimer: Timer | null;
}

export class InProcessRoomHost implements RoomHost {
  private readonly rooms = new Map<string, Loaded>();
  /** Rooms changed since their last save, and the one timer that saves them together. */
  private readonly dirty = new Set<Loaded>();
  private saveTimer: Timer | null = null;

  constructor(
    private readonly storage: RoomStorage,
    private readonly timing: HostTiming = DEFAULT_TIMING,
    private readonly onError: (what: string, err: unknown) => void = () => {},
  ) {}

  expireAwareness(now: number): void {
    for (const { room } of this.rooms.values()) if (room.peers.size > 0) room.expireAwareness(now);
  }

  connect(pageId: string, peer: Peer): RoomConnection {
    const loaded = this.load(pageId);
    if (loaded.unloadTimer) clearTimeout(loaded.unloadTimer);
    loaded.unloadTimer = null;
    loaded.room.join(peer);
    return {
      receive: (message) => loaded.room.receive(peer, message),
      leave: () => {
        loaded.room.leave(peer);
        if (loaded.room.peers.size > 0) return;
        // The last one out: saved at once, unloaded once it has stayed empty for a while.
        this.save([loaded]);
        loaded.unloadTimer = setTimeout(() => this.unload(pageId, loaded), this.timing.idleMs);
        loaded.unloadTimer.unref();
      },
    };
  }

  withLoadedRoom<T>(pageId: string, fn: (room: Room) => T): T | undefined {
    const loaded = this.rooms.get(pageId);
    return loaded ? fn(loaded.room) : undefined;
  }

  loadedPageIds(): string[] {
    return [...this.rooms.keys()];
  }

  peers(): Array<{ pageId: string; peer: Peer }> {
    const out: Array<{ pageId: string; peer: Peer }> = [];
    for (const [pageId, { room }] of this.rooms) for (const peer of room.peers.keys()) out.push({ pageId, peer });
    return out;
  }

  flush(): void {
    this.save([...this.dirty]);
  }

  close(code: number, reason: string): void {
    this.closeRooms(code, reason);
  }

  closeRooms(code: number, reason: string): void {
    for (const [pageId, loaded] of [...this.rooms]) {
      for (const peer of [...loaded.room.peers.keys()]) {
        loaded.room.leave(peer);
        peer.close(code, reason);
      }
      this.unload(pageId, loaded, true);
    }
  }

  stats() {
    let peers = 0;
    for (const { room } of this.rooms.values()) peers += room.peers.size;
    return { rooms: this.rooms.size, peers };
  }

  private load(pageId: string): Loaded {
    let loaded = this.rooms.get(pageId);
    if (loaded) return loaded;
    const entry: Loaded = { pageId, room: null as unknown as Room, dirty: false, unloadTimer: null };
    entry.room = this.storage.load(pageId, () => this.changed(entry));
    this.rooms.set(pageId, (loaded = entry));
    // A room seeded or brought up to date is stored at once: its Yjs identity must outlive a crash.
    this.save([loaded]);
    return loaded;
  }

  private changed(loaded: Loaded): void {
    loaded.dirty = true;
    this.dirty.add(loaded);
    this.scheduleSave();
  }

  /**
   * At most one save per delay however fast people type (not pushed back by each keystroke).
   * The rooms due are then saved a few per turn of the event loop: encoding and writing fifty
   * working copies at once held the loop for tens of milliseconds, which everyone's next
   * keystroke waited for.
   */
  private scheduleSave(): void {
    if (this.saveTimer || this.saving || this.dirty.size === 0) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.saveInSlices([...this.dirty]);
    }, this.timing.saveDelayMs);
    this.saveTimer.unref();
  }

  private saving = false;

  private saveInSlices(due: Loaded[]): void {
    this.saving = true;
    this.save(due.slice(0, SAVE_SLICE));
    if (due.length > SAVE_SLICE) {
      setImmediate(() => this.saveInSlices(due.slice(SAVE_SLICE)));
      return;
    }
    this.saving = false;
    this.scheduleSave();
  }

  private save(which: Loaded[]): void {
    const rooms = which.filter((l) => l.dirty);
    if (rooms.length > 0) {
      try {
        this.storage.save(rooms.map((l) => l.room));
        for (const l of rooms) {
          l.dirty = false;
          this.dirty.delete(l);
        }
      } catch (err) {
        // Kept dirty: tried again after the delay, at the last leave or at shutdown.
        this.onError("saving a collaborative document failed", err);
      }
    }
    if (this.dirty.size === 0 && this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    this.scheduleSave();
  }

  private unload(pageId: string, loaded: Loaded, closing = false): void {
    if (loaded.unloadTimer) clearTimeout(loaded.unloadTimer);
    loaded.unloadTimer = null;
    if (loaded.room.peers.size > 0 || this.rooms.get(pageId) !== loaded) return;
    this.save([loaded]);
    if (loaded.dirty && !closing) {
      // Not saved (the disk refused): kept in memory, tried again later.
      loaded.unloadTimer = setTimeout(() => this.unload(pageId, loaded), this.timing.idleMs);
      loaded.unloadTimer.unref();
      return;
    }
    this.rooms.delete(pageId);
    this.dirty.delete(loaded);
    loaded.room.destroy();
  }
}
