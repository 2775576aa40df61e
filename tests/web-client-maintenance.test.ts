/**
 * The web client during a restore: every write the API refuses with 503 `maintenance` reaches
 * the person in the same plain words (src/web/api/client.ts), whatever screen made it. Driven
 * through the client's own middleware against the real app in maintenance.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import createClient from "openapi-fetch";
import { ApiError, csrf, MAINTENANCE } from "../src/web/api/client";
import type { paths } from "../src/web/api/schema";
import { makeEnv, ownerAndMember, type TestEnv } from "./harness";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

test("a change refused while a restore runs says the wiki is read-only and nothing was saved; reads keep working", async () => {
  const { owner } = await ownerAndMember(env);
  const client = createClient<paths>({
    baseUrl: "http://cairn.test",
    headers: { cookie: `cairn_session=${owner.cookie}` },
    fetch: async (request: Request) => env.handle(request),
  });
  client.use(csrf);

  env.core.maintenance.enter("restore", 60, env.core.clock.now());
  try {
    const refused = await client.PUT("/api/auth/me", { body: { displayName: "Changed during the restore" } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503, code: "maintenance", message: MAINTENANCE });
    expect(MAINTENANCE).toContain("read-only");
    const me = await client.GET("/api/auth/me");
    expect(me.data?.displayName).not.toBe("Changed during the restore");
  } finally {
    env.core.maintenance.leave();
  }
  const saved = await client.PUT("/api/auth/me", { body: { displayName: "Changed after it" } });
  expect(saved.data?.displayName).toBe("Changed after it");
});
