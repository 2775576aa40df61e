/**
 * Side effects: PUT /api/pages/{id} on a page with 20 watchers in a space with 3
 * webhooks (to a local receiver, receiver.ts) must keep ≥ 70 % of the plain PUT's throughput
 * (content-scenarios.ts, which must run first), and every delivery must arrive. The server
 * must be started with CAIRN_OUTBOUND_ALLOW=127.0.0.1 so it may call the loopback receiver.
 *
 * Deliveries: the webhooks take page.updated only, so exactly 3 per new version of the page.
 * After the load, the wait for them is bounded (DRAIN_TIMEOUT_MS).
 */
import { TARGETS } from "./targets";
import { PUT_PAGES, putRequest } from "./content-scenarios";
import { startReceiver, type Receiver } from "./receiver";
import type { BenchContext, LoadFigures, Scenario } from "./scenarios";
import { OWNER } from "./seed";

export const WATCHERS = 20;
export const WEBHOOKS = 3;
const DRAIN_TIMEOUT_MS = 120_000;
/** No new delivery for this long: they are failing (retries wait 5 s, then 30 s); stop waiting. */
const STALL_MS = 15_000;
const TIMEOUT_MS = 15_000;

interface SideState {
  pageId: string;
  receiver: Receiver;
  /** Session cookies of the watchers. */
  watchers: string[];
}

async function send(ctx: BenchContext, method: string, path: string, body: unknown, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-requested-with": "Cairn" };
  if (cookie) headers.cookie = `cairn_session=${cookie}`;
  return fetch(ctx.baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
}

async function expect2xx(res: Response, what: string): Promise<any> {
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** An invited account with its session; it then watches the page. */
async function addWatcher(ctx: BenchContext, pageId: string, n: number): Promise<string> {
  const invite = await ctx.api("POST", "/api/admin/invites", {});
  const email = `watcher-${n}@example.com`;
  const res = await send(ctx, "POST", "/api/auth/register", {
    email,
    displayName: `Watcher ${n}`,
    password: OWNER.password,
    inviteToken: invite.token,
  });
  const cookie = /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  await expect2xx(res, `register ${email}`);
  if (!cookie) throw new Error(`register ${email}: no session cookie`);
  const state = await expect2xx(await send(ctx, "POST", `/api/pages/${pageId}/watch`, undefined, cookie), `watch as ${email}`);
  if (!state.watching) throw new Error(`${email} does not watch the page`);
  return cookie;
}

async function setup(ctx: BenchContext): Promise<void> {
  const space = await ctx.api("POST", "/api/spaces", { key: "SIDE", name: "Side effects" });
  const page = await ctx.api("POST", "/api/pages", { spaceId: space.id, title: "Watched page" });
  const watchers: string[] = [];
  for (let n = 1; n <= WATCHERS; n++) watchers.push(await addWatcher(ctx, page.id, n));
  const receiver = startReceiver();
  for (let n = 1; n <= WEBHOOKS; n++)
    await ctx.api("POST", `/api/spaces/${space.key}/webhooks`, { url: `${receiver.url}/hook/${n}`, events: ["page.updated"] });
  ctx.shared.side = { pageId: page.id, receiver, watchers } satisfies SideState;
}

/** Waits (bounded) until every delivery has arrived; answers the figures for the results. */
async function drain(ctx: BenchContext, r: LoadFigures): Promise<Record<string, number | boolean>> {
  const side = ctx.shared.side as SideState;
  const page = await ctx.api("GET", `/api/pages/${side.pageId}`);
  const versions = page.currentVersionNumber - 1; // version 1 came with the page, before the webhooks
  const expected = versions * WEBHOOKS;
  const t0 = performance.now();
  let last = side.receiver.total();
  let lastChange = t0;
  while (side.receiver.total() < expected && performance.now() - t0 < DRAIN_TIMEOUT_MS && performance.now() - lastChange < STALL_MS) {
    await Bun.sleep(50);
    if (side.receiver.total() !== last) (last = side.receiver.total()), (lastChange = performance.now());
  }
  const drainSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const arrived = side.receiver.total();
  const perHook = Array.from({ length: WEBHOOKS }, (_, i) => side.receiver.distinct(`/hook/${i + 1}`));
  // The fan-out: each watcher has one unread page.updated entry, coalesced over every edit.
  const unread = await Promise.all(
    side.watchers.map(
      async (c) =>
        (await expect2xx(await send(ctx, "GET", "/api/notifications/unread-count", undefined, c), "unread count")).count as number,
    ),
  );
  const listed = await expect2xx(await send(ctx, "GET", "/api/notifications?take=1", undefined, side.watchers[0]), "notifications");
  side.receiver.stop();
  const plainPutRps = ctx.shared.plainPutRps as number | undefined;
  return {
    versions,
    deliveriesExpected: expected,
    deliveriesArrived: arrived,
    deliveriesPerWebhookMin: Math.min(...perHook),
    deliveryRequests: side.receiver.requests(),
    drainSeconds,
    allArrived: arrived === expected && perHook.every((n) => n === versions),
    watchersNotified: unread.filter((n) => n >= 1).length,
    editsCoalesced: Number(listed[0]?.details?.edits ?? 0),
    ratioToPlainPut: plainPutRps ? Math.round((r.rps / plainPutRps) * 1000) / 1000 : 0,
  };
}

export const SIDE_EFFECT_SCENARIOS: Scenario[] = [
  {
    name: `PUT /api/pages/{id}, ${WATCHERS} watchers, ${WEBHOOKS} webhooks`,
    target: `≥ ${TARGETS.watchedPutShare * 100} % of plain PUT rps, every delivery arrives`,
    setup,
    requests: (ctx) => Array.from({ length: PUT_PAGES }, (_, k) => putRequest(ctx, (ctx.shared.side as SideState).pageId, 7_000_000 + k)),
    after: drain,
    met: (r) => Number(r.extra?.ratioToPlainPut) >= TARGETS.watchedPutShare && r.extra?.allArrived === true,
  },
];
