/**
 * A local webhook receiver for the side-effects scenario: a Bun.serve on 127.0.0.1 in the bench
 * process that answers 204 at once and counts what arrives per path (one path per webhook).
 * Deliveries are counted once each by their webhook-id header (the same on every retry), so a
 * retried delivery is not counted twice.
 */
import type { Server } from "bun";
import { HOST } from "./procs";

export interface Receiver {
  url: string;
  /** Distinct deliveries per path. */
  distinct(path: string): number;
  /** Distinct deliveries over all paths. */
  total(): number;
  /** Requests received, retries included. */
  requests(): number;
  stop(): void;
}

export function startReceiver(): Receiver {
  const seen = new Map<string, Set<string>>();
  let requests = 0;
  const server: Server<undefined> = Bun.serve({
    hostname: HOST,
    port: 0,
    async fetch(req) {
      await req.arrayBuffer();
      requests++;
      const path = new URL(req.url).pathname;
      let ids = seen.get(path);
      if (!ids) seen.set(path, (ids = new Set()));
      ids.add(req.headers.get("webhook-id") ?? `missing-${requests}`);
      return new Response(null, { status: 204 });
    },
  });
  return {
    url: `http://${HOST}:${server.port}`,
    distinct: (path) => seen.get(path)?.size ?? 0,
    total: () => [...seen.values()].reduce((sum, ids) => sum + ids.size, 0),
    requests: () => requests,
    stop: () => void server.stop(true),
  };
}
