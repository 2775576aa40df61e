/**
 * The counting rules of Connections on their own, with sockets whose send buffers the test sets
 * (a real server cannot be made to hold an exact number of bytes): the room's cap, the room's
 * total, and the allowance for an answer the socket asked for itself.
 */
import { expect, test } from "bun:test";
import { Connections, TOO_MANY, type Tracked } from "./connections";

class FakeSocket implements Tracked {
  buffered = 0;
  terminated = false;
  readonly data;
  constructor(userId: string, pageId: string) {
    this.data = { userId, pageId, allowance: 0 };
  }
  getBufferedAmount() {
    return this.buffered;
  }
  terminate() {
    this.terminated = true;
  }
}

const bounds = { perAccount: 3, perRoom: 4, sendBuffer: 100, roomBuffer: 250 };

test("sockets are refused past the account's and the room's caps, and count again once closed", () => {
  const c = new Connections<FakeSocket>(bounds);
  const mine = [1, 2, 3].map(() => new FakeSocket("u1", "p1"));
  for (const s of mine) expect(c.admit(s)).toBeNull();
  expect(c.admit(new FakeSocket("u1", "p2"))).toBe(TOO_MANY.account);
  expect(c.admit(new FakeSocket("u2", "p1"))).toBeNull();
  expect(c.admit(new FakeSocket("u3", "p1"))).toBe(TOO_MANY.room);
  c.drop(mine[0]!);
  expect(c.admit(new FakeSocket("u1", "p2"))).toBeNull();
});

test("a socket behind by more than the bound is cut before a broadcast; the room's total stays under its bound", () => {
  const c = new Connections<FakeSocket>(bounds);
  const [a, b, sender] = [new FakeSocket("a", "p"), new FakeSocket("b", "p"), new FakeSocket("s", "p")];
  for (const s of [a, b, sender]) c.admit(s);
  a.buffered = 101;
  c.beforeBroadcast("p", 10, sender);
  expect(a.terminated).toBe(true);
  expect(b.terminated).toBe(false);
  // Each under its own bound, together over the room's: the furthest behind goes first.
  const [d, e] = [new FakeSocket("d", "p"), new FakeSocket("e", "p")];
  c.admit(d);
  c.admit(e);
  b.buffered = 90;
  d.buffered = 95;
  e.buffered = 60;
  c.beforeBroadcast("p", 10, sender);
  expect(d.terminated).toBe(true);
  expect(b.terminated).toBe(false);
  expect(c.roomBuffered("p")).toBeLessThanOrEqual(250);
});

test("a socket may hold the whole answer it asked for on top of the bound, not more", () => {
  const c = new Connections<FakeSocket>(bounds);
  const s = new FakeSocket("a", "p");
  c.admit(s);
  expect(c.beforeSend(s, 200)).toBe(true);
  s.buffered = 200;
  c.beforeBroadcast("p", 10, null);
  expect(s.terminated).toBe(false);
  s.buffered = 301;
  expect(c.beforeSend(s, 200)).toBe(false);
  expect(s.terminated).toBe(true);
});
