import { afterAll, beforeAll, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";

let env: TestEnv;
let owner: Who;
beforeAll(async () => {
  env = makeEnv();
  ({ owner } = await ownerAndMember(env));
});
afterAll(() => env.close());

const free = (key: string) => call(env, "GET", `/api/spaces/free-key?key=${encodeURIComponent(key)}`, { as: owner });

test("a free key is answered as it is (upper case); a taken one gives the nearest free one", async () => {
  expect((await free("docs")).body).toEqual({ key: "DOCS", taken: false });
  for (const key of ["DOCS", "DOCS2"])
    expect((await call(env, "POST", "/api/spaces", { as: owner, body: { key, name: key } })).status).toBe(201);
  expect((await free("docs")).body).toEqual({ key: "DOCS3", taken: true });
  // A key ending in digits counts on from its stem, not DOCS22.
  expect((await free("DOCS2")).body).toEqual({ key: "DOCS3", taken: true });
});

test("a key that is not one is a 400 naming it", async () => {
  const res = await free("1x");
  expect(res.status).toBe(400);
  expect(res.body.field).toBe("key");
});
