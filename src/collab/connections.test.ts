/**
 * What one account's sockets may cost a real server process (its RSS read from /proc): many
 * sockets from one token that never read while someone else types. The extra sockets are
 * refused with a reason, the ones that fall behind are cut, and the honest editors stay in sync.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as encoding from "lib0/encoding";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";
import { peakRssDuring } from "../../tests/rss";
import { startInScratch, stopAndRemove, type ServerProcess } from "../../tests/server-process";
import { SOCKETS_PER_ACCOUNT } from "./connections";
import { until } from "./testing";

const PASSWORD = "correct horse battery staple";
let dir: string;
let server: ServerProcess;
let owner: { id: string; cookie: string };

async function api(method: string, path: string, cookie: string | null, body?: unknown) {
  const headers: Record<string, string> = { "x-requested-with": "Cairn" };
  if (cookie) headers.cookie = `cairn_session=${cookie}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signUp(email: string, inviteBy?: string) {
  const inviteToken = inviteBy ? (await api("POST", "/api/admin/invites", inviteBy, {})).body.token : undefined;
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email, displayName: email.split("@")[0], password: PASSWORD, inviteToken }),
  });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { id: string }).id, cookie: /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")![1]! };
}

beforeAll(async () => {
  ({ dir, server } = await startInScratch("cairn-sockets-"));
  owner = await signUp("owner@example.com");
}, 30_000);
afterAll(async () => {
  await stopAndRemove(server, dir);
}, 30_000);

function provider(pageId: string, token: string) {
  const doc = new Y.Doc();
  const p = new WebsocketProvider(`${server.url.replace(/^http/, "ws")}/api/collab`, pageId, doc, {
    params: { token },
    disableBc: true,
    WebSocketPolyfill: WebSocket as never,
  });
  return { doc, p, text: () => doc.getXmlFragment("default").toString() };
}

/**
 * About 9 MB sent to everyone in the room by one honest-looking person, inside one person's flood
 * budget: 3.2 MB of typing in 400 KB changes, each deleted again (the working copy, which keeps
 * deleted text for its people's undo, stays under its 4 MiB bound), and 800 caret updates of
 * 7 KB. A socket that does not read is sent far more than its 1 MB bound plus what the kernel's
 * socket buffers take.
 */
async function sendLots(writer: ReturnType<typeof provider>): Promise<void> {
  const text = firstParagraph(writer.doc);
  for (let i = 0; i < 8; i++) {
    text.insert(0, "x".repeat(400 * 1024));
    text.delete(0, text.length);
    text.insert(text.length, String(i));
    for (let k = 0; k < 100; k++) {
      writer.p.awareness.setLocalStateField("pad", `${i}-${k}-${"z".repeat(7000)}`);
      await Bun.sleep(8);
    }
  }
}

/** The text of the page's first paragraph, where an editor types (the room takes nothing else). */
function firstParagraph(doc: Y.Doc): Y.XmlText {
  const paragraph = doc.getXmlFragment("default").get(0) as Y.XmlElement;
  if (paragraph.length === 0) paragraph.insert(0, [new Y.XmlText()]);
  return paragraph.get(0) as Y.XmlText;
}

test("300 sockets of one token that never read cost the server a bounded amount while another person types", async () => {
  const member = await signUp("member@example.com", owner.cookie);
  const space = await api("POST", "/api/spaces", owner.cookie, { key: "SOCK", name: "Sockets" });
  await api("POST", `/api/spaces/SOCK/permissions`, owner.cookie, { principalType: 0, principalId: member.id, operation: 1 });
  const page = await api("POST", "/api/pages", owner.cookie, {
    spaceId: space.body.id,
    title: "Busy",
    contentJson: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }),
  });
  const pageId = page.body.id as string;
  const tokenOf = async (cookie: string) => (await api("GET", `/api/pages/${pageId}/collab-token`, cookie)).body.token as string;

  const writer = provider(pageId, await tokenOf(owner.cookie));
  const reader = provider(pageId, await tokenOf(owner.cookie));
  await until(() => writer.p.synced && reader.p.synced, 5000, "honest editors synced");

  // The attack: one member's token, many sockets that stop reading as soon as they open.
  const token = await tokenOf(member.cookie);
  const closes: Array<{ code: number; reason: string }> = [];
  const sockets: WebSocket[] = [];
  for (let i = 0; i < 300; i++) {
    const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/api/collab/${pageId}?token=${encodeURIComponent(token)}`);
    ws.binaryType = "arraybuffer";
    ws.onclose = (e) => closes.push({ code: e.code, reason: e.reason });
    sockets.push(ws);
  }
  await until(() => sockets.every((ws) => ws.readyState !== WebSocket.CONNECTING), 20_000, "sockets opened");
  // Long enough for the server's refusals (a close frame each) to arrive before they stop reading.
  await until(() => closes.length >= 300 - SOCKETS_PER_ACCOUNT, 15_000, "extra sockets refused");
  for (const ws of sockets) (ws as unknown as { pause(): boolean }).pause();

  const refused = closes.filter((c) => c.code === 4429);
  expect(refused.length).toBeGreaterThanOrEqual(300 - SOCKETS_PER_ACCOUNT);
  expect(refused[0]!.reason).toContain("connections");

  const pid = server.proc.pid;
  const { before, peak } = await peakRssDuring(pid, async () => {
    await sendLots(writer);
    await until(() => reader.text() === writer.text(), 15_000, "reader in sync");
  });
  console.log(`RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB under 300 non-reading sockets`);
  expect(peak - before).toBeLessThan(150);
  expect(server.proc.exitCode).toBeNull();
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  expect(reader.text()).toBe(writer.text());
  // The admitted ones fell behind and were cut (no close frame: it would queue behind the rest).
  for (const ws of sockets) (ws as unknown as { resume(): boolean }).resume();
  await until(() => closes.length === 300, 5000, "the sockets that fell behind were cut");
  expect(closes.filter((c) => c.code === 1006).length).toBe(SOCKETS_PER_ACCOUNT);
  for (const ws of sockets) ws.close();
  writer.p.destroy();
  reader.p.destroy();
}, 60_000);

test("an editor that fell behind is cut, reconnects by itself and catches up", async () => {
  const space = await api("POST", "/api/spaces", owner.cookie, { key: "SLOW", name: "Slow" });
  const page = await api("POST", "/api/pages", owner.cookie, {
    spaceId: space.body.id,
    title: "Slow",
    contentJson: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }),
  });
  const pageId = page.body.id as string;
  const token = (await api("GET", `/api/pages/${pageId}/collab-token`, owner.cookie)).body.token as string;
  const writer = provider(pageId, token);
  const slow = provider(pageId, token);
  await until(() => writer.p.synced && slow.p.synced, 5000, "synced");
  const closes: number[] = [];
  slow.p.on("connection-close", (e) => void (e && closes.push(e.code)));
  (slow.p.ws as unknown as { pause(): boolean }).pause();
  await sendLots(writer);
  (slow.p.ws as unknown as { resume(): boolean }).resume();
  await until(() => closes.length > 0, 5000, "the slow editor was cut");
  // y-websocket reconnects (the close code is not one of the 4400s it gives up on) and syncs.
  await until(() => slow.p.wsconnected && slow.p.synced && slow.text() === writer.text(), 10_000, "caught up");
  expect(firstParagraph(slow.doc).toString()).toBe("7");
  writer.p.destroy();
  slow.p.destroy();
}, 30_000);

test("one connection announcing 1.6 million client ids costs a bounded amount, and leaves nothing behind", async () => {
  const member = await signUp("crowd@example.com", owner.cookie);
  const space = await api("POST", "/api/spaces", owner.cookie, { key: "CROWD", name: "Crowd" });
  await api("POST", `/api/spaces/CROWD/permissions`, owner.cookie, { principalType: 0, principalId: member.id, operation: 1 });
  const page = await api("POST", "/api/pages", owner.cookie, {
    spaceId: space.body.id,
    title: "Crowd",
    contentJson: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }),
  });
  const pageId = page.body.id as string;
  const token = (await api("GET", `/api/pages/${pageId}/collab-token`, member.cookie)).body.token as string;
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/api/collab/${pageId}?token=${encodeURIComponent(token)}`);
  ws.binaryType = "arraybuffer";
  await new Promise((resolve) => (ws.onopen = resolve));
  let closed = false;
  ws.onclose = () => void (closed = true);
  const { before, peak } = await peakRssDuring(server.proc.pid, async () => {
    // 1.6 million ids in 32 messages of 50,000 (about 13 MB in 5 s), inside the connection's budget.
    for (let m = 0; m < 32; m++) {
      ws.send(awarenessOf(50_000, 1_000_000 + m * 50_000));
      await Bun.sleep(150);
    }
    await Bun.sleep(500);
  });
  console.log(`RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB under 1.6 million announced client ids`);
  expect(closed).toBe(false);
  expect(peak - before).toBeLessThan(150);
  ws.close();
  // A newcomer finds nobody there once the connection has gone.
  const newcomer = provider(pageId, (await api("GET", `/api/pages/${pageId}/collab-token`, owner.cookie)).body.token);
  await until(() => newcomer.p.synced, 5000, "newcomer synced");
  await Bun.sleep(300);
  expect(newcomer.p.awareness.getStates().size).toBe(1); // itself
  expect(server.proc.exitCode).toBeNull();
  newcomer.p.destroy();
}, 60_000);

function awarenessOf(count: number, firstId: number): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, count);
  for (let i = 0; i < count; i++) {
    encoding.writeVarUint(inner, firstId + i);
    encoding.writeVarUint(inner, 1);
    encoding.writeVarString(inner, "{}");
  }
  const outer = encoding.createEncoder();
  encoding.writeVarUint(outer, 1);
  encoding.writeVarUint8Array(outer, encoding.toUint8Array(inner));
  return encoding.toUint8Array(outer);
}
