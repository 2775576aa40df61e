import type { Core } from "../core";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import type { WriteBehind } from "../platform/scheduler";
import { addTokenDay } from "./store/tokens";

/** How often the day counts in memory are written: a crash loses at most this much activity. */
export const ACTIVITY_FLUSH_MS = 60_000;
const DAY = 86_400_000;

interface Pending {
  tokenId: string;
  day: string;
  requests: number;
  last: number;
  lastIp: string;
}

/**
 * What the admin's token activity shows: requests per token and UTC day, with the day's last
 * use and the address it came from (only the last one: the activity is a count, not a log of
 * requests). Counted in memory where the pipeline accepts a token and added to api_token_days
 * about once a minute, at shutdown and before the activity is read, in one transaction (the
 * scheduler's write-behind): never a write per request. A crash loses at most the last minute.
 */
export class TokenActivity {
  private pending: WriteBehind<string, Pending>;

  constructor(private core: Core) {
    this.pending = core.scheduler.writeBehind("tokens.activity", ACTIVITY_FLUSH_MS, {
      // (record() adds to a waiting entry in place; this merges a batch kept after a failed write.)
      merge: (old, added) => ({ ...(added.last > old.last ? added : old), requests: old.requests + added.requests }),
      write: (batch) => this.write([...batch.values()]),
    });
  }

  /** The UTC day of the last request and where it starts (a date is not formatted per request). */
  private day = { name: "", from: 0 };

  /** `client.ip` (a question to the socket) is read once per millisecond: the first request's of that millisecond is kept. */
  record(tokenId: string, client: { readonly ip: string }): void {
    const now = this.core.clock.now();
    if (now < this.day.from || now >= this.day.from + DAY) this.day = { name: iso(now).slice(0, 10), from: now - (now % DAY) };
    const day = this.day.name;
    const key = `${tokenId}|${day}`;
    const p = this.pending.pending.get(key);
    if (p) {
      p.requests++;
      if (now > p.last) {
        p.last = now;
        p.lastIp = client.ip;
      }
    } else {
      this.pending.add(key, { tokenId, day, requests: 1, last: now, lastIp: client.ip });
    }
  }

  flush(): void {
    this.pending.flush();
  }

  private write(batch: Pending[]): void {
    this.core.bookkeeping(() => {
      for (const p of batch) {
        try {
          addTokenDay(this.core, { tokenId: p.tokenId, day: p.day, requests: p.requests, lastUsedAt: iso(p.last), lastIp: p.lastIp });
        } catch (err) {
          // A token deleted since (its owner's account removed): its counts go with it; a failed
          // statement does not undo the others of the transaction.
          if (!String((err as Error).message).includes("FOREIGN KEY")) throw err;
        }
      }
    });
  }
}

export const tokenActivity = perInstance((core: Core) => new TokenActivity(core));
