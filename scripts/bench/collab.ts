/**
 * Real-time collaboration under load, against the built binary (the clients run in this
 * process, the server in its own): `bun scripts/bench/collab.ts [--binary=PATH] [--seconds=N]`,
 * and part of `bun run bench`'s full run.
 *
 * 1. idle rooms: 200 pages are opened once each (one client connects, syncs, leaves); with the
 *    rooms loaded and the server's idle collection done, RSS growth ÷ 200 is one idle room;
 * 2. idle connections: 500 clients connected to those rooms and left idle: RSS growth;
 * 3. load: 50 rooms × 4 stock y-websocket clients, each making 5 edits a second (a few
 *    characters typed and the caret moved, as TipTap does) for 30 s, in 4 client processes:
 *    the server's CPU (from /proc/<pid>/stat) and the time from an edit to its arrival at each
 *    other client (p50, p99; each edit carries its send time, so any process can measure it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";
import { build } from "../build";
import { cpuMicros, killAll, rssMb } from "./procs";
import type { FigureRow } from "./report";
import { startCairn } from "./server";

const PASSWORD = "correct horse battery staple";
export const COLLAB_TARGETS = { cpuCores: 0.3, p99Ms: 30, idleRoomKb: 100, idleConnectionsMb: 50 };

interface Session {
  url: string;
  cookie: string;
}

async function api(s: Session, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(s.url + path, {
    method,
    headers: { cookie: `cairn_session=${s.cookie}`, "x-requested-with": "Cairn", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * The server holds at most SOCKETS_PER_ACCOUNT sockets per account (collab/connections.ts), as
 * one person's tabs would: the bench's clients are spread over this many invited accounts
 * (500 idle connections ÷ 48 ≈ 11 each), as a team's would be.
 */
const ACCOUNTS = 48;

/** Invited accounts beside the owner, each with its session. */
async function invitePeople(owner: Session, count: number): Promise<Session[]> {
  const people: Session[] = [owner];
  for (let n = 1; people.length < count; n++) {
    const invite = await api(owner, "POST", "/api/admin/invites", {});
    const res = await fetch(`${owner.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
      body: JSON.stringify({
        email: `collab-${n}@example.com`,
        displayName: `Collaborator ${n}`,
        password: PASSWORD,
        inviteToken: invite.token,
      }),
    });
    const cookie = /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
    if (!cookie) throw new Error(`register collab-${n}: ${res.status} ${await res.text()}`);
    people.push({ url: owner.url, cookie });
  }
  return people;
}

async function seed(url: string, pages: number): Promise<{ session: Session; pageIds: string[] }> {
  const res = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email: "bench@example.com", displayName: "Bench", password: PASSWORD }),
  });
  const cookie = /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (!cookie) throw new Error(`register: ${res.status} ${await res.text()}`);
  const session = { url, cookie };
  const space = await api(session, "POST", "/api/spaces", { key: "COLLAB", name: "Collaboration bench" });
  // A realistic small page: a heading and a few paragraphs (~2 KB of text).
  const body = (n: number) =>
    JSON.stringify({
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: `Shared page ${n}: ` }] },
        ...Array.from({ length: 6 }, (_, i) => ({
          type: "paragraph",
          content: [
            { type: "text", text: `Paragraph ${i} of page ${n}. ${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(5)}` },
          ],
        })),
      ],
    });
  const pageIds: string[] = [];
  for (let i = 0; i < pages; i++)
    pageIds.push((await api(session, "POST", "/api/pages", { spaceId: space.id, title: `Shared ${i}`, contentJson: body(i) })).id);
  return { session, pageIds };
}

interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
}

async function connect(s: Session, pageId: string): Promise<Client> {
  const { token } = await api(s, "GET", `/api/pages/${pageId}/collab-token`);
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(`${s.url.replace(/^http/, "ws")}/api/collab`, pageId, doc, {
    params: { token },
    disableBc: true,
    WebSocketPolyfill: WebSocket as never,
  });
  const deadline = performance.now() + 10_000;
  while (!provider.synced) {
    if (performance.now() > deadline) throw new Error(`client for ${pageId} did not sync`);
    await Bun.sleep(5);
  }
  return { doc, provider };
}

const close = (clients: Client[]) => {
  for (const c of clients) {
    c.provider.destroy();
    c.doc.destroy();
  }
};

/** RSS once the server has been quiet long enough for its idle collection (platform/idle-gc.ts). */
async function quietRss(pid: number): Promise<number> {
  await Bun.sleep(2_500);
  return rssMb(pid);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

export interface CollabResult {
  figures: FigureRow[];
  extras: Record<string, unknown>;
}

export async function measureCollab(
  binary: string,
  logPath: string,
  opts: { seconds?: number; rooms?: number; log?: (line: string) => void } = {},
): Promise<CollabResult> {
  const log = opts.log ?? console.log;
  const seconds = opts.seconds ?? 30;
  const rooms = opts.rooms ?? 50;
  const cairn = await startCairn(binary, logPath);
  try {
    const pid = cairn.child.pid;
    const { session, pageIds } = await seed(cairn.url, 251);
    const people = await invitePeople(session, ACCOUNTS);
    const person = (i: number) => people[i % people.length];
    const loadPages = pageIds.slice(0, rooms);
    const idlePages = pageIds.slice(50, 250);
    const probePage = pageIds[250];

    // 1. Idle loaded rooms.
    const before = await quietRss(pid);
    for (const pageId of idlePages) close([await connect(session, pageId)]);
    const afterRooms = await quietRss(pid);
    const roomKb = ((afterRooms - before) * 1024) / idlePages.length;
    log(`idle rooms: RSS ${before.toFixed(1)} → ${afterRooms.toFixed(1)} MB for ${idlePages.length} rooms: ${roomKb.toFixed(1)} KB each`);

    // 2. Idle connections: 500 clients on the rooms just loaded, doing nothing.
    const beforeConnections = afterRooms;
    const idle: Client[] = [];
    for (let i = 0; i < 500; i++) idle.push(await connect(person(i), idlePages[i % idlePages.length]));
    const afterConnections = await quietRss(pid);
    const connectionsMb = afterConnections - beforeConnections;
    log(
      `idle connections: RSS ${beforeConnections.toFixed(1)} → ${afterConnections.toFixed(1)} MB for 500: +${connectionsMb.toFixed(1)} MB`,
    );
    close(idle);

    // 3. Load: 4 clients per room, 5 edits a second each, in 4 client processes (one client of
    // each room per process), so that the clients' own work does not queue behind each other.
    // Worker w's client in room r belongs to person w × rooms + r: 200 clients, ≤ 5 per account.
    const tokens = async (w: number) =>
      Promise.all(
        loadPages.map(async (pageId, r) => ({
          pageId,
          token: (await api(person(w * rooms + r), "GET", `/api/pages/${pageId}/collab-token`)).token as string,
        })),
      );
    const workers = await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        const child = Bun.spawn(["bun", import.meta.path, "--worker"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
        child.stdin.write(JSON.stringify({ url: session.url, rooms: await tokens(w), warmupMs: 3_000, seconds } satisfies WorkerPlan));
        child.stdin.end();
        return child;
      }),
    );
    // A probe: one more room whose 4 clients share a process of their own that has nothing
    // else to do, as each person's browser would. The load's clients above share 4 processes
    // between 200 of them, on the same cores as the server: on a small machine their own
    // queueing is most of what they measure.
    const probeToken = async () => ({
      pageId: probePage,
      token: (await api(session, "GET", `/api/pages/${probePage}/collab-token`)).token as string,
    });
    const probe = Bun.spawn(["bun", import.meta.path, "--worker"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    probe.stdin.write(
      JSON.stringify({
        url: session.url,
        rooms: await Promise.all([probeToken(), probeToken(), probeToken(), probeToken()]),
        warmupMs: 3_000,
        seconds,
      } satisfies WorkerPlan),
    );
    probe.stdin.end();
    const probeOutput = new Response(probe.stdout).text();
    // The measured window starts once every worker has connected and warmed up.
    await Bun.sleep(3_000 + 2_000);
    const cpuBefore = cpuMicros(pid);
    const clientCpuBefore = workers.reduce((n, w) => n + cpuMicros(w.pid), 0);
    const loadBefore = loadavg()[0];
    const startedAt = performance.now();
    const outputs = workers.map((w) => new Response(w.stdout).text());
    await Bun.sleep(seconds * 1000);
    const cpuAfter = cpuMicros(pid);
    const clientCores =
      (workers.reduce((n, w) => n + cpuMicros(w.pid), 0) - clientCpuBefore) / 1e6 / ((performance.now() - startedAt) / 1000);
    const machineLoad = [loadBefore, loadavg()[0]];
    const elapsed = (performance.now() - startedAt) / 1000;
    const reports = await Promise.all(outputs.map(async (o) => JSON.parse(await o) as WorkerReport));
    const cores = (cpuAfter - cpuBefore) / 1e6 / elapsed;
    const latencies = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const edits = reports.reduce((n, r) => n + r.edits, 0);
    const converged = reports.length === 4 && loadPages.every((pageId) => reports.every((r) => r.docs[pageId] === reports[0].docs[pageId]));
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const probeLatencies = ((JSON.parse(await probeOutput) as WorkerReport).latencies ?? []).sort((a, b) => a - b);
    const probeP50 = percentile(probeLatencies, 50);
    const probeP99 = percentile(probeLatencies, 99);
    const expected = edits * 3;
    log(
      `load: ${edits} edits (${(edits / seconds).toFixed(0)}/s), ${latencies.length}/${expected} arrivals measured, ` +
        `converged ${converged}; server CPU ${cores.toFixed(3)} cores, clients ${clientCores.toFixed(2)} cores, machine ` +
        `load ${machineLoad.map((l) => l.toFixed(1)).join(" → ")} on ${cpus().length} cores; edit→arrival p50 ` +
        `${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; in the probe room (its own client process, ` +
        `${probeLatencies.length} arrivals) p50 ${probeP50.toFixed(1)} ms, p99 ${probeP99.toFixed(1)} ms`,
    );

    const t = COLLAB_TARGETS;
    const figures: FigureRow[] = [
      {
        figure: `collaboration: server CPU, ${rooms} rooms × 4 clients × 5 edits/s for ${seconds} s`,
        value: `${cores.toFixed(3)} cores`,
        target: `< ${t.cpuCores}`,
        met: cores < t.cpuCores,
      },
      {
        figure: "collaboration: edit → arrival at the other clients, p99 (p50)",
        value: `${p99.toFixed(1)} ms (${p50.toFixed(1)} ms)`,
        target: `< ${t.p99Ms} ms`,
        met: p99 < t.p99Ms && latencies.length > expected * 0.99 && converged,
      },
      {
        figure: "collaboration: the same in a probe room whose 4 clients have a process to themselves, p99 (p50)",
        value: `${probeP99.toFixed(1)} ms (${probeP50.toFixed(1)} ms)`,
        target: `< ${t.p99Ms} ms`,
        met: probeP99 < t.p99Ms,
      },
      {
        figure: "collaboration: memory of one idle loaded room",
        value: `${roomKb.toFixed(1)} KB`,
        target: `< ${t.idleRoomKb} KB`,
        met: roomKb < t.idleRoomKb,
      },
      {
        figure: "collaboration: 500 idle connections",
        value: `${connectionsMb.toFixed(1)} MB`,
        target: `< ${t.idleConnectionsMb} MB`,
        met: connectionsMb < t.idleConnectionsMb,
      },
    ];
    return {
      figures,
      extras: {
        collab: {
          cores,
          clientCores,
          machineLoad,
          p50Ms: p50,
          p99Ms: p99,
          probeP50Ms: probeP50,
          probeP99Ms: probeP99,
          edits,
          arrivals: latencies.length,
          expectedArrivals: expected,
          converged,
          roomKb,
          connectionsMb,
        },
      },
    };
  } finally {
    await cairn.stop();
  }
}

interface WorkerPlan {
  url: string;
  rooms: Array<{ pageId: string; token: string }>;
  warmupMs: number;
  seconds: number;
}

interface WorkerReport {
  edits: number;
  latencies: number[];
  /** Each room's final document, to check that every client converged. */
  docs: Record<string, string>;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const wallMs = () => performance.timeOrigin + performance.now();

/**
 * One client process: a client in each room, each typing a marker that carries its send time
 * (so any process can measure its arrival) 5 times a second, moving its caret each time.
 */
async function runWorker(plan: WorkerPlan): Promise<WorkerReport> {
  const clients: Array<Client & { pageId: string }> = [];
  for (const { pageId, token } of plan.rooms) {
    const doc = new Y.Doc();
    const provider = new WebsocketProvider(`${plan.url.replace(/^http/, "ws")}/api/collab`, pageId, doc, {
      params: { token },
      disableBc: true,
      WebSocketPolyfill: WebSocket as never,
    });
    clients.push({ doc, provider, pageId });
  }
  const deadline = performance.now() + 20_000;
  while (!clients.every((c) => c.provider.synced)) {
    if (performance.now() > deadline) throw new Error("worker clients did not sync");
    await Bun.sleep(5);
  }
  const textOf = (c: Client) => (c.doc.getXmlFragment("default").get(0) as Y.XmlElement).get(0) as Y.XmlText;
  let measuring = false;
  let edits = 0;
  const latencies: number[] = [];
  for (const c of clients) {
    textOf(c).observe((event) => {
      if (!measuring || event.transaction.origin !== c.provider) return;
      const now = wallMs();
      for (const op of event.delta) {
        if (typeof op.insert !== "string") continue;
        for (const m of op.insert.matchAll(/‹(\d+\.\d+)›/g)) latencies.push(now - Number(m[1]));
      }
    });
  }
  const intervals: Timer[] = [];
  const starts = clients.map((c) =>
    setTimeout(() => {
      intervals.push(
        setInterval(() => {
          const text = textOf(c);
          const at = Math.random() < 0.5 ? 0 : text.length;
          text.insert(at, `‹${wallMs().toFixed(3)}›`);
          // The caret moves with the typing: one awareness update, as y-tiptap's cursor plugin sends.
          c.provider.awareness.setLocalStateField("cursor", { anchor: at, head: at });
          if (measuring) edits++;
        }, 200),
      );
    }, Math.random() * 200),
  );
  await Bun.sleep(plan.warmupMs + 2_000);
  measuring = true;
  await Bun.sleep(plan.seconds * 1000);
  measuring = false;
  for (const t of starts) clearTimeout(t);
  for (const t of intervals) clearInterval(t);
  // Let what is still on its way arrive before the documents are compared: wait until no
  // update has come for a second (at most 15 s), so a loaded machine's backlog is not taken
  // for a failure to converge.
  let lastUpdate = performance.now();
  for (const c of clients) c.doc.on("update", () => (lastUpdate = performance.now()));
  const drainDeadline = performance.now() + 15_000;
  while (performance.now() - lastUpdate < 1_000 && performance.now() < drainDeadline) await Bun.sleep(100);
  const docs: Record<string, string> = {};
  for (const c of clients) docs[c.pageId] = c.doc.getXmlFragment("default").toString();
  close(clients);
  return { edits, latencies, docs };
}

if (import.meta.main && process.argv.includes("--worker")) {
  const plan = JSON.parse(await new Response(Bun.stdin.stream()).text()) as WorkerPlan;
  await Bun.write(Bun.stdout, JSON.stringify(await runWorker(plan)));
  process.exit(0);
} else if (import.meta.main) {
  const root = join(import.meta.dir, "..", "..");
  const out = join(root, ".bench");
  mkdirSync(out, { recursive: true });
  const given = process.argv.find((a) => a.startsWith("--binary="))?.slice("--binary=".length);
  const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice("--seconds=".length) ?? 30);
  const rooms = Number(process.argv.find((a) => a.startsWith("--rooms="))?.slice("--rooms=".length) ?? 50);
  const binary = given ?? (await build({ quiet: true, distDir: join(out, "collab-dist") })).outfile;
  const logPath = join(out, "collab.log");
  writeFileSync(logPath, "");
  try {
    const result = await measureCollab(binary, logPath, { seconds, rooms });
    for (const f of result.figures) console.log(`${f.met ? "MET   " : "MISSED"} ${f.figure}: ${f.value} (target ${f.target})`);
    process.exit(result.figures.every((f) => f.met) ? 0 : 1);
  } catch (err) {
    console.error(err);
    killAll();
    process.exit(1);
  }
}
