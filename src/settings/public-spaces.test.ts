/**
 * Making a space public while the instance setting allowPublicSpaces is off is allowed, but the
 * answer says that anonymous visitors still cannot read it, and the setting can be turned on
 * over the API (PUT /api/admin/settings).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { ARCHIVED_PUBLIC_WARNING, PUBLIC_SPACES_OFF_WARNING } from "./public-spaces";

let env: TestEnv;
let owner: Who;
beforeEach(async () => {
  env = makeEnv();
  owner = await signUp(env, "owner@example.com");
  expect((await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } })).status).toBe(201);
});
afterEach(() => env.close());

const publish = (body: Record<string, boolean>) => call(env, "PUT", "/api/admin/spaces/DOCS/public", { as: owner, body });
const anonymousRead = async () => (await call(env, "GET", "/api/spaces/DOCS")).status;

test("while allowPublicSpaces is off the space is made public, and the answer warns, naming the setting", async () => {
  const res = await publish({ isPublic: true });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ key: "DOCS", isPublic: true, warning: PUBLIC_SPACES_OFF_WARNING });
  expect(res.body.warning).toStartWith("allowPublicSpaces is off: anonymous visitors still cannot read this space");
  expect(await anonymousRead()).toBe(404);

  const on = await call(env, "PUT", "/api/admin/settings", { as: owner, body: { allowPublicSpaces: true } });
  expect(on.body.allowPublicSpaces).toBe(true);
  expect(await anonymousRead()).toBe(200);
  const again = await publish({ publicComments: true });
  expect(again.status).toBe(200);
  expect(again.body.warning).toBeUndefined();
});

test("no warning for a private space; an archived public one is warned about too", async () => {
  expect((await publish({ isPublic: false, publicComments: true })).body.warning).toBeUndefined();
  await call(env, "PUT", "/api/admin/settings", { as: owner, body: { allowPublicSpaces: true } });
  expect((await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner })).status).toBe(200);
  const res = await publish({ isPublic: true });
  expect(res.body.warning).toBe(ARCHIVED_PUBLIC_WARNING);
  expect(await anonymousRead()).toBe(404);
});
