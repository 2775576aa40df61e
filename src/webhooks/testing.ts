/** Test helpers for webhooks: a real receiver on a loopback port, and the delivery log. */
import { call, type TestEnv, type Who } from "../../tests/harness";

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
