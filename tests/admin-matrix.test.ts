/**
 * The admin matrix (docs/decisions.md, "The admin matrix"): every /api/admin/*, /api/setup* and
 * /api/media/* route (those that take a space are in the access matrix) × each kind of caller → the
 * status its rules give (expectedFor in tests/admin-matrix/world.ts). Rows live beside their areas
 * in tests/admin-matrix/<area>.rows.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ALL_RIGHTS, type Right } from "../src/identity/rights";
import { call, type TestEnv, type Who } from "./harness";
import type { AdminRow } from "./admin-matrix/types";
import { buildWorld, CALLERS, expectedFor, type CallerName, type MatrixWorld } from "./admin-matrix/world";

const dir = join(import.meta.dir, "admin-matrix");
const ROWS: AdminRow[] = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".rows.ts"))
  .sort()) {
  ROWS.push(...((await import(join(dir, file))) as { rows: AdminRow[] }).rows);
}

let world: MatrixWorld;
beforeAll(async () => {
  world = await buildWorld();
});
afterAll(() => world.env.close());

const isRight = (need: string): need is Right => (ALL_RIGHTS as readonly string[]).includes(need);

async function whoIs(w: MatrixWorld, caller: CallerName, row: AdminRow): Promise<Who | null> {
  switch (caller) {
    case "anonymous":
      return {};
    case "holder":
      return isRight(row.need) ? w.holderOf(row.need) : null;
    case "otherAdmin":
      return isRight(row.need) ? w.otherAdminOf(row.need) : null;
    default:
      return w[caller];
  }
}

async function callRow(w: MatrixWorld, row: AdminRow, caller: CallerName, who: Who) {
  const ctx = w.ctx(caller);
  const method = row.route.split(" ")[0]!;
  const path = await row.path(ctx);
  const body = row.body ? await row.body(ctx) : undefined;
  return call(w.env, method, path, { as: who, body });
}

describe("admin matrix", () => {
  for (const row of ROWS) {
    test(`${row.route}${row.note ? ` (${row.note})` : ""} [needs ${row.need}` +
      `${row.reauth ? ", reauth" : ""}${row.sessionOnly ? ", session" : ""}]`, async () => {
      const got: string[] = [];
      const want: string[] = [];
      // A row that breaks the world gives each caller it should let through a world of its own;
      // the callers it should refuse change nothing by their call, so they share one (each
      // still sets up its own target in it first, as row.path does for everyone). Their accounts
      // are made before any target: a target may leave a restore running, which refuses invites.
      const refused = CALLERS.filter((caller) => expectedFor(row, caller) !== row.ok);
      const refusedWorld = row.breaksWorld && refused.length ? await buildWorld() : null;
      const refusedWho = new Map<CallerName, Who | null>();
      try {
        for (const caller of refusedWorld ? refused : []) refusedWho.set(caller, await whoIs(refusedWorld!, caller, row));
        for (const caller of CALLERS) {
          const expected = expectedFor(row, caller);
          const w = !row.breaksWorld ? world : refusedWho.has(caller) ? refusedWorld! : await buildWorld();
          try {
            const who = refusedWho.has(caller) ? refusedWho.get(caller)! : await whoIs(w, caller, row);
            if (!who) continue;
            const res = await callRow(w, row, caller, who);
            got.push(`${caller} ${res.status}`);
            want.push(`${caller} ${expected}`);
            // A refusal says why in its code: the right, the re-authentication or the token's kind.
            if (expected === 403 && res.status === 403 && caller === "staleOwner") expect(res.body?.code).toBe("reauth_required");
            if (expected === 403 && res.status === 403 && caller === "readOnlyToken" && !row.route.startsWith("GET"))
              expect(res.body?.code).toBe("read_only_token");
          } finally {
            if (w !== world && w !== refusedWorld) w.env.close();
          }
        }
      } finally {
        refusedWorld?.env.close();
      }
      expect(got).toEqual(want);
    }, 60_000);
  }
});

/** The app's routes as METHOD /path with {params} (as the access matrix lists them). */
const appRoutes = (e: TestEnv) =>
  [...new Set(e.app.routes.map((r) => `${r.method} ${r.path.replace(/(.)\/$/, "$1").replace(/:(\w+)/g, "{$1}")}`))].sort();

describe("coverage", () => {
  const ADMIN = /^\w+ \/api\/(admin|setup|media)(\/|$)/;
  // Routes that take a space are in the access matrix (tests/access-matrix.test.ts).
  const TAKES_SPACE = /^\w+ \/api\/(admin\/spaces|media\/space-icons)(\/|$)/;
  test("every admin, setup and media route has a row", () => {
    const covered = new Set(ROWS.map((r) => r.route.replace(/:(\w+)/g, "{$1}")));
    const missing = appRoutes(world.env).filter((r) => ADMIN.test(r) && !TAKES_SPACE.test(r) && !covered.has(r));
    expect(missing).toEqual([]);
  });
  test("every row names a route the app registers", () => {
    const routes = new Set(appRoutes(world.env));
    expect(ROWS.map((r) => r.route.replace(/:(\w+)/g, "{$1}")).filter((r) => !routes.has(r))).toEqual([]);
  });
});
