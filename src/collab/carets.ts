/**
 * The awareness of a room (who is there, their carets and names) as the server needs it: to
 * hand newcomers everyone's latest state, and to announce the departure of a peer that left or
 * went silent. y-protocols' Awareness parses and compares every state on every caret move; the
 * server never reads a state, so it keeps each one as the JSON text it arrived as. The wire
 * format is y-protocols' own: a count, then per client its id, clock and state as JSON text
 * ("null": gone).
 */
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";

/** As y-protocols: a client renews its state every 15 s, so 30 s of silence means gone. */
export const CARET_TIMEOUT_MS = 30_000;

interface Entry {
  clock: number;
  /** null once the client is gone (its clock stays, so a late update cannot revive it). */
  json: string | null;
  lastUpdated: number;
}

export class Carets {
  private readonly entries = new Map<number, Entry>();

  /** Applies an awareness update; answers the clients it announced (present) and removed. */
  apply(update: Uint8Array, nowMs: number): { present: number[]; gone: number[] } {
    const decoder = decoding.createDecoder(update);
    const present: number[] = [];
    const gone: number[] = [];
    const count = decoding.readVarUint(decoder);
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const json = decoding.readVarString(decoder);
      const entry = this.entries.get(clientId);
      const removal = json === "null";
      // y-protocols' rule: a newer clock wins; the same clock may still remove.
      if (entry && !(entry.clock < clock || (entry.clock === clock && removal && entry.json !== null))) continue;
      this.entries.set(clientId, { clock, json: removal ? null : json, lastUpdated: nowMs });
      (removal ? gone : present).push(clientId);
    }
    return { present, gone };
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

  /** The clients present but silent for longer than the time-out. */
  stale(nowMs: number): number[] {
    const out: number[] = [];
    for (const [id, e] of this.entries) if (e.json !== null && nowMs - e.lastUpdated >= CARET_TIMEOUT_MS) out.push(id);
    return out;
  }

  has(clientId: number): boolean {
    return this.entries.get(clientId)?.json != null;
  }
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
