/**
 * The open collaboration sockets, counted per account and per room, and what they may hold in
 * the server's memory. A socket whose reader stopped reading keeps every change of its room in
 * a send buffer; one account opening hundreds of them could fill the server. So: few sockets
 * per account and per room, a socket that falls behind by more than a small amount is cut (the
 * editor's y-websocket reconnects and syncs what it missed), and the sockets of one room
 * together hold at most a bound (the ones furthest behind go first).
 */
/** One person with a few tabs and devices open on several pages stays well under this. */
export const SOCKETS_PER_ACCOUNT = 16;
/** People editing one page at once. */
export const SOCKETS_PER_ROOM = 100;
/** How far behind a socket may fall on its room's changes before it is cut. */
export const SEND_BUFFER_BOUND = 1024 * 1024;
/** What all the sockets of one room may have buffered together. */
export const ROOM_BUFFER_BOUND = 32 * 1024 * 1024;

export const TOO_MANY = {
  account: {
    code: 4429,
    status: 429,
    reason: "Too many live editing connections for your account: close the page in another tab or device, then try again.",
  },
  room: { code: 4429, status: 429, reason: "Too many people are editing this page live right now. Try again in a moment." },
} as const;

export interface TrackedData {
  readonly userId: string;
  readonly pageId: string;
  /**
   * The largest answer this socket asked for itself (the whole document, for a sync request):
   * a reader on a slow link may have that much waiting on top of the bound without falling behind.
   */
  allowance: number;
}

/** What this needs of a socket (Bun's ServerWebSocket). */
export interface Tracked {
  readonly data: TrackedData;
  getBufferedAmount(): number;
  /** Closes at once, dropping what is buffered (a close frame would only queue behind it). */
  terminate(): void;
}

export interface Bounds {
  perAccount: number;
  perRoom: number;
  sendBuffer: number;
  roomBuffer: number;
}

export const DEFAULT_BOUNDS: Bounds = {
  perAccount: SOCKETS_PER_ACCOUNT,
  perRoom: SOCKETS_PER_ROOM,
  sendBuffer: SEND_BUFFER_BOUND,
  roomBuffer: ROOM_BUFFER_BOUND,
};

export class Connections<S extends Tracked> {
  private readonly byAccount = new Map<string, Set<S>>();
  private readonly byRoom = new Map<string, Set<S>>();
  /** Sockets cut for falling behind (reported in the server's stats). */
  cut = 0;

  constructor(private readonly bounds: Bounds = DEFAULT_BOUNDS) {}

  /** Counts a new socket in, or says why it may not open. */
  admit(socket: S): (typeof TOO_MANY)[keyof typeof TOO_MANY] | null {
    const { userId, pageId } = socket.data;
    if ((this.byAccount.get(userId)?.size ?? 0) >= this.bounds.perAccount) return TOO_MANY.account;
    if ((this.byRoom.get(pageId)?.size ?? 0) >= this.bounds.perRoom) return TOO_MANY.room;
    add(this.byAccount, userId, socket);
    add(this.byRoom, pageId, socket);
    return null;
  }

  drop(socket: S): void {
    remove(this.byAccount, socket.data.userId, socket);
    remove(this.byRoom, socket.data.pageId, socket);
  }

  ofAccount(userId: string): S[] {
    return [...(this.byAccount.get(userId) ?? [])];
  }

  /**
   * Before `bytes` go to one socket (its own answer): false when it is already too far behind,
   * and was cut. Its room's total is checked too, since an answer can be a whole document.
   */
  beforeSend(socket: S, bytes: number): boolean {
    if (this.behind(socket)) {
      this.cutOff(socket);
      return false;
    }
    socket.data.allowance = Math.max(socket.data.allowance, bytes);
    this.boundRoom(socket.data.pageId, bytes, socket);
    return true;
  }

  /** Before `bytes` go to every socket of the room but `sender`: cuts those too far behind. */
  beforeBroadcast(pageId: string, bytes: number, sender: S | null): void {
    for (const socket of [...(this.byRoom.get(pageId) ?? [])]) if (socket !== sender && this.behind(socket)) this.cutOff(socket);
    this.boundRoom(pageId, bytes * Math.max(0, (this.byRoom.get(pageId)?.size ?? 1) - 1), null);
  }

  /** Bytes the room's sockets hold now (what the test and the stats read). */
  roomBuffered(pageId: string): number {
    let total = 0;
    for (const socket of this.byRoom.get(pageId) ?? []) total += socket.getBufferedAmount();
    return total;
  }

  private behind(socket: S): boolean {
    return socket.getBufferedAmount() > this.bounds.sendBuffer + socket.data.allowance;
  }

  /** While the room's buffers and what is about to be sent pass the bound, the furthest behind goes. */
  private boundRoom(pageId: string, incoming: number, spare: S | null): void {
    const sockets = [...(this.byRoom.get(pageId) ?? [])].map((s) => ({ s, buffered: s.getBufferedAmount() }));
    let total = incoming + sockets.reduce((sum, x) => sum + x.buffered, 0);
    if (total <= this.bounds.roomBuffer) return;
    sockets.sort((a, b) => b.buffered - a.buffered);
    for (const { s, buffered } of sockets) {
      if (total <= this.bounds.roomBuffer || buffered === 0) break;
      if (s === spare) continue;
      this.cutOff(s);
      total -= buffered;
    }
  }

  private cutOff(socket: S): void {
    this.cut++;
    this.drop(socket);
    socket.terminate();
  }
}

function add<S>(map: Map<string, Set<S>>, key: string, socket: S): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(socket);
}

function remove<S>(map: Map<string, Set<S>>, key: string, socket: S): void {
  const set = map.get(key);
  if (!set?.delete(socket)) return;
  if (set.size === 0) map.delete(key);
}
