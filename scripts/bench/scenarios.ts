/**
 * The load scenarios. To add one (pages, tree, search, writes…), append to SCENARIOS: seed what
 * it needs in setup() through the public API (ctx.api), answer the request mix it loads, and
 * say what figure it must reach. Scenarios run in order against one server, so a setup may
 * reuse what an earlier one seeded (keep state in ctx.shared).
 */
import { TARGETS } from "./targets";
import { ACCESS_SCENARIOS } from "./access-scenarios";
import { CONTENT_SCENARIOS } from "./content-scenarios";
import { SIDE_EFFECT_SCENARIOS } from "./side-effect-scenarios";

/** One request in a scenario's mix; the loader cycles through the list on every connection. */
export interface LoadRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface BenchContext {
  baseUrl: string;
  /** Owner's API token (cct_…), read-write. */
  token: string;
  /** Owner's session cookie value. */
  cookie: string;
  quick: boolean;
  /** Calls the API as the owner with the token; throws unless the answer is 2xx. */
  api(method: string, path: string, body?: unknown): Promise<any>;
  /** Headers that authenticate as the owner's token. */
  auth(): Record<string, string>;
  /** Whatever setups want to hand to later scenarios. */
  shared: Record<string, unknown>;
}

export interface LoadFigures {
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** Figures a scenario's after() adds (deliveries counted, latency one request at a time…). */
export type ExtraFigures = Record<string, number | string | boolean>;

export interface Scenario {
  name: string;
  /** Shown beside the result, e.g. "≥ 40 % of baseline rps". */
  target: string;
  setup?(ctx: BenchContext): Promise<void>;
  requests(ctx: BenchContext): LoadRequest[];
  /** Runs once the load is over; what it answers goes beside the figures in the results. */
  after?(ctx: BenchContext, result: LoadFigures): Promise<ExtraFigures>;
  met(result: LoadFigures & { ratioToBaseline: number; extra?: ExtraFigures }): boolean;
  /**
   * Requests that time out (10 s) make the scenario MISSED instead of failing the whole run
   * (searching 100,000 pages can be that slow under 32 connections). Non-2xx still fail it.
   */
  timeoutsAreMisses?: boolean;
}

const atLeastOfBaseline = (share: number) => ({
  target: `≥ ${share * 100} % of baseline rps`,
  met: (r: { ratioToBaseline: number }) => r.ratioToBaseline >= share,
});

const FOUNDATION_SCENARIOS: Scenario[] = [
  {
    name: "GET /api/health (token)",
    // The token keeps the load clear of the anonymous rate limit (300/min per address),
    // which would otherwise turn most of the run into 429s.
    ...atLeastOfBaseline(0.4),
    requests: (ctx) => [{ method: "GET", path: "/api/health", headers: ctx.auth() }],
  },
  {
    name: "GET /api/auth/me (token)",
    ...atLeastOfBaseline(TARGETS.authMeShare),
    requests: (ctx) => [{ method: "GET", path: "/api/auth/me", headers: ctx.auth() }],
  },
];

// Pages, tree, search and writes (content-scenarios.ts), then writes with watchers and webhooks
// (side-effect-scenarios.ts, which compares itself with the plain PUT before it), then reading a
// space full of restrictions (access-scenarios.ts).
export const SCENARIOS: Scenario[] = [...FOUNDATION_SCENARIOS, ...CONTENT_SCENARIOS, ...SIDE_EFFECT_SCENARIOS, ...ACCESS_SCENARIOS];
