/**
 * Who a caret says it is, and what a connection may leave in its room's awareness: real
 * y-websocket clients and raw sockets against a real server. The rights sweep is left at its
 * minute here, so a suspension that closes sockets at once is the event's doing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as encoding from "lib0/encoding";
import { personColor } from "../content/person-color";
import { IDS_PER_CONNECTION } from "./carets";
import { roomHostOf } from "./service";
import { makePage, makeSpace, openSynced, startCollabEnv, until, type Account, type Client, type CollabEnv } from "./testing";

let env: CollabEnv;
let owner: Account;
let mallory: Account;
let spaceId: string;
const clients: Client[] = [];

beforeAll(async () => {
  env = await startCollabEnv(undefined, { sweepMs: 60_000 });
  owner = await env.signUp("owner@example.com");
  mallory = await env.signUp("mallory@example.com", owner);
  spaceId = await makeSpace(env, owner, "PRES", [[mallory.id, 1]]);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await env.close();
});

const caretsIn = (pageId: string) => roomHostOf(env.server.core)!.withLoadedRoom(pageId, (room) => room.carets.size);

test("a caret shows the account's own name and colour, whatever the client announces", async () => {
  const pageId = await makePage(env, owner, spaceId, "Hello");
  const ownerClient = await openSynced(env, owner, pageId, clients);
  const impostor = await openSynced(env, mallory, pageId, clients);
  impostor.provider.awareness.setLocalState({ user: { id: owner.id, name: "owner", color: "#000000" }, cursor: null });
  const seen = () =>
    ownerClient.provider.awareness.getStates().get(impostor.doc.clientID) as
      | { user?: { id: string; name: string; color: string } }
      | undefined;
  await until(() => seen()?.user !== undefined, 3000, "the impostor's caret reaches the owner");
  expect(seen()!.user).toEqual({ id: mallory.id, name: "mallory", color: personColor(mallory.id) });
  // A newcomer reads it the same from the room's snapshot.
  const later = await openSynced(env, owner, pageId, clients);
  await until(() => later.provider.awareness.getStates().has(impostor.doc.clientID), 3000, "snapshot");
  expect((later.provider.awareness.getStates().get(impostor.doc.clientID) as { user: { name: string } }).user.name).toBe("mallory");
});

test("a connection may not move or remove another connection's caret", async () => {
  const pageId = await makePage(env, owner, spaceId, "Mine");
  const ownerClient = await openSynced(env, owner, pageId, clients);
  ownerClient.provider.awareness.setLocalStateField("cursor", { anchor: 1 });
  const watcher = await openSynced(env, owner, pageId, clients);
  await until(() => watcher.provider.awareness.getStates().has(ownerClient.doc.clientID), 3000, "owner's caret");
  const ws = await rawSocket(pageId, mallory);
  ws.send(awareness([[ownerClient.doc.clientID, 1_000_000, "null"]]));
  ws.send(awareness([[ownerClient.doc.clientID, 1_000_001, JSON.stringify({ cursor: { anchor: 99 } })]]));
  await Bun.sleep(300);
  expect(watcher.provider.awareness.getStates().get(ownerClient.doc.clientID)).toMatchObject({ cursor: { anchor: 1 } });
  ws.close();
});

test("one connection announcing many client ids keeps a few, and none once it leaves", async () => {
  const pageId = await makePage(env, owner, spaceId, "Crowd");
  const watcher = await openSynced(env, owner, pageId, clients);
  const ws = await rawSocket(pageId, mallory);
  // 20,000 ids in ten messages, well inside the connection's message and byte budget.
  for (let m = 0; m < 10; m++) {
    ws.send(awareness(Array.from({ length: 2000 }, (_, i) => [100_000 + m * 2000 + i, 1, "{}"] as [number, number, string])));
    ws.send(awareness(Array.from({ length: 2000 }, (_, i) => [100_000 + m * 2000 + i, 2, "null"] as [number, number, string])));
  }
  await Bun.sleep(300);
  expect(caretsIn(pageId)!).toBeLessThanOrEqual(IDS_PER_CONNECTION + 1);
  expect(watcher.provider.awareness.getStates().size).toBeLessThanOrEqual(IDS_PER_CONNECTION + 1);
  ws.close();
  // How long to wait for the close to be handled, not a bound on it: a loaded machine (the suite
  // runs several files at once) can take more than the usual 3 s to get there.
  await until(() => caretsIn(pageId) === 1, 10_000, "the leaver's ids forgotten");
});

test("suspending an account closes its collaboration sockets at once", async () => {
  const pageId = await makePage(env, owner, spaceId, "Suspend");
  const c = await openSynced(env, mallory, pageId, clients);
  const res = await env.api("PUT", `/api/admin/users/${mallory.id}/status`, owner, { status: 1 });
  expect(res.status).toBe(200);
  const started = Date.now();
  await until(() => c.closes.length > 0, 1000, "closed within a second");
  expect(Date.now() - started).toBeLessThan(1000);
  expect(c.closes[0]!.code).toBe(4403);
  expect(c.closes[0]!.reason).toContain("suspended");
  await env.api("PUT", `/api/admin/users/${mallory.id}/status`, owner, { status: 0 });
});

async function rawSocket(pageId: string, as: Account): Promise<WebSocket> {
  const token = (await env.api("GET", `/api/pages/${pageId}/collab-token`, as)).body.token as string;
  const ws = new WebSocket(`${env.wsUrl}/${pageId}?token=${encodeURIComponent(token)}`);
  ws.binaryType = "arraybuffer";
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  return ws;
}

function awareness(entries: Array<[number, number, string]>): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, entries.length);
  for (const [id, clock, json] of entries) {
    encoding.writeVarUint(inner, id);
    encoding.writeVarUint(inner, clock);
    encoding.writeVarString(inner, json);
  }
  const outer = encoding.createEncoder();
  encoding.writeVarUint(outer, 1);
  encoding.writeVarUint8Array(outer, encoding.toUint8Array(inner));
  return encoding.toUint8Array(outer);
}
