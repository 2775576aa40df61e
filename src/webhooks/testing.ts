/** Test helpers for webhooks: a real receiver on a loopback port, and the delivery log. */
import { afterEach } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { newSpace } from "../spaces/testing";

export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

/**
 * A real HTTP server on 127.0.0.1 that records what it receives. `answer` picks the reply
 * for the n-th request (0-based); the default is 200 with a short text.
 */
export function startReceiver(answer: (n: number) => Response = () => new Response("thanks")) {
  const received: Received[] = [];
  let waiting: Array<() => void> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.text();
      received.push({ headers: req.headers.toJSON(), body, path: new URL(req.url).pathname });
      const res = answer(received.length - 1);
      for (const w of waiting) w();
      waiting = [];
      return res;
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    /** Resolves once at least n requests have arrived. */
    until(n: number): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => {
        const check = () => (received.length >= n ? resolve() : waiting.push(check));
        waiting.push(check);
      });
    },
    stop: () => server.stop(true),
  };
}

export async function newWebhook(env: TestEnv, who: Who, key: string, url: string, events: string[] | string = "*") {
  const res = await call(env, "POST", `/api/spaces/${key}/webhooks`, { as: who, body: { url, events } });
  if (res.status !== 201) throw new Error(`create webhook: ${res.status} ${res.text}`);
  return res.body as { id: string; secret: string; url: string; events: string[] };
}

export async function deliveriesOf(env: TestEnv, who: Who, key: string, hookId: string) {
  const res = await call(env, "GET", `/api/spaces/${key}/webhooks/${hookId}/deliveries`, { as: who });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${res.text}`);
  return res.body as Array<{
    id: string;
    eventId: string;
    eventType: string;
    status: string;
    attempts: number;
    nextAttemptAt: string | null;
    lastStatusCode: number | null;
    lastError: string | null;
    lastResponseSnippet: string | null;
    payload: { type: string; timestamp: string; data: Record<string, unknown> };
    log: Array<{ attempt: number; statusCode: number | null; error: string | null; durationMs: number; responseSnippet: string | null }>;
  }>;
}

/** Outbound requests to the test's own receivers on loopback are allowed. */
export const ALLOW_LOOPBACK = { CAIRN_OUTBOUND_ALLOW: "127.0.0.1" };

/**
 * A webhook test file's set-up: environments and receivers closed after each test, an owner with
 * the space DOCS, and a rename of it (which records space.updated, so a delivery).
 */
export function webhookTestKit() {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanups.splice(0).reverse()) fn();
  });
  return {
    /** Runs `fn` after the test, with the kit's own clean-ups. */
    cleanup: (fn: () => void) => void cleanups.push(fn),
    env(opts: Parameters<typeof makeEnv>[0] = {}): TestEnv {
      const e = makeEnv(opts);
      cleanups.push(() => e.close());
      return e;
    },
    receiver(answer?: Parameters<typeof startReceiver>[0]) {
      const r = startReceiver(answer);
      cleanups.push(r.stop);
      return r;
    },
    async ownerWithSpace(e: TestEnv) {
      const owner = await signUp(e, "owner@example.com");
      const space = await newSpace(e, owner, "DOCS");
      return { owner, space };
    },
    rename: (e: TestEnv, who: { cookie: string }, name: string) => call(e, "PUT", "/api/spaces/DOCS", { as: who, body: { name } }),
  };
}
