/**
 * The admin matrix (docs/decisions.md, "The admin matrix"): every /api/admin/*, /api/setup* and
 * /api/media/* route, called by each kind of caller. A row names the route, the right it needs and
 * whether it needs a recent re-authentication; the expected status for each caller follows from
 * that (expectedFor in matrix-world.ts), so the rules live in one place.
 *
 * Each area keeps its rows in its own file beside this one (`<area>.rows.ts`, exporting
 * `rows: AdminRow[]`); tests/admin-matrix.test.ts runs them all and fails when a route of
 * those prefixes has no row.
 */
import type { Right } from "../../src/identity/rights";
import type { TestEnv, Who } from "../harness";

/**
 * Who may call a route:
 * - a right key: callers whose role holds it (the owner always does);
 * - "signedIn": any account (tokens included, unless `session` is set);
 * - "anyone": no account needed;
 * - "owner": only the owner (e.g. transfer-ownership).
 */
export type Need = Right | "signedIn" | "anyone" | "owner";

/** What a row's functions get: the world, and a maker of fresh things for rows that destroy. */
export interface MatrixCtx {
  env: TestEnv;
  /** The caller this call is made as (to build a target that belongs to them, e.g. an avatar). */
  caller: string;
  /** Ids of the world's accounts, by caller name (member, admin, owner, holder…). */
  ids: Record<string, string>;
  /** A new active member account (its id), for rows that suspend, promote or delete someone. */
  freshUser(): Promise<string>;
  /** A new space (its key), made by the owner. */
  freshSpace(): Promise<string>;
  /** The owner's session (to set up a target through the API). */
  owner: Who;
}

export interface AdminRow {
  /** The route as the app registers it, e.g. "PUT /api/admin/users/:userId/role". */
  route: string;
  need: Need;
  /**
   * Needs a session that proved its password in the last 5 minutes (docs/permissions.md,
   * "Re-authentication").
   */
  reauth?: boolean;
  /** Answers a browser session only (tokens get 403 token_not_allowed). */
  sessionOnly?: boolean;
  /** The success status (200, 201, 204). */
  ok: number;
  path(c: MatrixCtx): string | Promise<string>;
  /** A JSON body, or FormData for uploads. Built per call, so a fresh target per caller is fine. */
  body?(c: MatrixCtx): unknown | Promise<unknown>;
  /** Label when one route has several rows. */
  note?: string;
  /**
   * Its success changes the world for every later row (transfer-ownership, completing the
   * wizard): the runner gives each caller this row lets through a world of its own (the callers it
   * refuses share one, their call changing nothing).
   */
  breaksWorld?: boolean;
}
