/**
 * The awareness of a room (who is there, their carets and names) as the server needs it: to
 * hand newcomers everyone's latest state, and to announce the departure of a peer that left or
 * went silent. The wire format is y-protocols' own: a count, then per client its id, clock and
 * state as JSON text ("null": gone).
 *
 * Each client id belongs to the connection that first announced it, and a connection may
 * announce only a few (an editor has one: its document's client id); an id of another live
 * connection, or one past the few, is dropped from the update before it goes on. When the
 * connection leaves, its ids leave with it: nothing stays behind once it is gone. The `user`
 * of every state is the server's (the account's name and colour), whatever the client wrote.
 */
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";

const utf8 = new TextDecoder();

/** As y-protocols: a client renews its state every 15 s, so 30 s of silence means gone. */
export const CARET_TIMEOUT_MS = 30_000;
/** Client ids one connection may announce in its life (an editor uses one). */
export const IDS_PER_CONNECTION = 4;
/** A caret with a name is some hundreds of bytes of JSON; a bigger state is not passed on. */
export const MAX_STATE_BYTES = 8 * 1024;

/** One connection's side of the awareness: the ids it announced and who it is. */
export class CaretOwner {
  readonly ids = new Set<number>();
  constructor(
    /** What every state this connection announces shows as its `user`. */
    readonly user: { id: string; name: string; color: string },
  ) {}
}

interface Entry {
  owner: CaretOwner;
  clock: number;
  /** null once the client is gone (its clock stays while its connection lives, so a late update cannot revive it). */
  json: string | null;
  lastUpdated: number;
}

export class Carets {
  private readonly entries = new Map<number, Entry>();

  /**
   * Applies a connection's awareness update; answers what the others should receive (the
   * entries accepted, each state carrying the connection's own `user`), or null if nothing.
   */
  apply(owner: CaretOwner, update: Uint8Array, nowMs: number): Uint8Array | null {
    const decoder = decoding.createDecoder(update);
    const accepted: Array<[number, number, string]> = [];
    const count = decoding.readVarUint(decoder);
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      // The state's bytes are a view into the message: decoded only for an id this connection may use.
      const bytes = decoding.readVarUint8Array(decoder);
      const entry = this.entries.get(clientId);
      if (entry ? entry.owner !== owner : owner.ids.size >= IDS_PER_CONNECTION) continue;
      if (bytes.length > MAX_STATE_BYTES) continue;
      const text = utf8.decode(bytes);
      const removal = text === "null";
      // y-protocols' rule: a newer clock wins; the same clock may still remove.
      if (entry && !(entry.clock < clock || (entry.clock === clock && removal && entry.json !== null))) continue;
      const json = removal ? null : stamped(text, owner);
      if (json === undefined) continue;
      owner.ids.add(clientId);
      this.entries.set(clientId, { owner, clock, json, lastUpdated: nowMs });
      accepted.push([clientId, clock, json ?? "null"]);
    }
    return accepted.length ? encodeEntries(accepted) : null;
  }

  /** Everyone present, as one update (for a newcomer, or a query); null when nobody is. */
  snapshot(): Uint8Array | null {
    const live = [...this.entries].filter(([, e]) => e.json !== null);
    return live.length ? encodeEntries(live.map(([id, e]) => [id, e.clock, e.json!])) : null;
  }

  /** Marks these clients gone; answers the update that tells the others (null if none was present). */
  remove(clientIds: Iterable<number>, nowMs: number): Uint8Array | null {
    const removed: Array<[number, number, string]> = [];
    for (const id of clientIds) {
      const entry = this.entries.get(id);
      if (!entry || entry.json === null) continue;
      entry.clock++;
      entry.json = null;
      entry.lastUpdated = nowMs;
      removed.push([id, entry.clock, "null"]);
    }
    return removed.length ? encodeEntries(removed) : null;
  }

  /** The connection left: its clients are gone and forgotten; answers the update that tells the others. */
  forget(owner: CaretOwner, nowMs: number): Uint8Array | null {
    const update = this.remove(owner.ids, nowMs);
    for (const id of owner.ids) if (this.entries.get(id)?.owner === owner) this.entries.delete(id);
    owner.ids.clear();
    return update;
  }

  /** The clients present but silent for longer than the time-out. */
  stale(nowMs: number): number[] {
    const out: number[] = [];
    for (const [id, e] of this.entries) if (e.json !== null && nowMs - e.lastUpdated >= CARET_TIMEOUT_MS) out.push(id);
    return out;
  }

  has(clientId: number): boolean {
    return this.entries.get(clientId)?.json != null;
  }

  /** Client ids known, present or not (bounded by the live connections). */
  get size(): number {
    return this.entries.size;
  }
}

/** The state as JSON with the connection's own `user`; undefined when it is not a plain object. */
function stamped(text: string, owner: CaretOwner): string | undefined {
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof state !== "object" || state === null || Array.isArray(state)) return undefined;
  return JSON.stringify({ ...state, user: owner.user });
}

function encodeEntries(entries: Array<[number, number, string]>): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, entries.length);
  for (const [id, clock, json] of entries) {
    encoding.writeVarUint(encoder, id);
    encoding.writeVarUint(encoder, clock);
    encoding.writeVarString(encoder, json);
  }
  return encoding.toUint8Array(encoder);
}
