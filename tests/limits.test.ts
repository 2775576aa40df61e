/**
 * One number per rule (issue 13 §3): every length limit a service enforces is one exported
 * constant, the route schema is built from it, so OpenAPI advertises exactly the number the
 * service enforces. Table-driven: for each rule, the advertised maxLength equals the constant, a
 * value at the limit is taken and one character more is a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX } from "../src/groups/service";
import { PASSWORD_MAX } from "../src/identity/password";
import { COMMENT_MAX, TITLE_MAX } from "../src/pages/input";
import { DESCRIPTION_MAX as SPACE_DESCRIPTION_MAX, NAME_MAX as SPACE_NAME_MAX } from "../src/spaces/service";
import { DESCRIPTION_MAX as TEMPLATE_DESCRIPTION_MAX, NAME_MAX as TEMPLATE_NAME_MAX } from "../src/templates/service";
import { TOKEN_NAME_MAX } from "../src/tokens/service";
import { INVITE_MESSAGE_MAX } from "../src/users/invites";
import { DISPLAY_NAME_MAX } from "../src/users/service";
import { call, makeEnv, signUp, type TestEnv } from "./harness";

let env: TestEnv;
let openapi: any;
let owner: { cookie: string };
let spaceId = "";

beforeAll(async () => {
  env = makeEnv();
  openapi = (await call(env, "GET", "/api/openapi.json")).body;
  owner = await signUp(env, "owner@example.com");
  spaceId = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "LIM", name: "Limits" } })).body.id;
});
afterAll(() => env.close());

interface Rule {
  op: string;
  field: string;
  max: number;
  /** The request with `value` in the field. */
  send(value: string): Promise<{ status: number; body: any }>;
  /** What a value of n characters is (default: n letters). */
  value?: (n: number) => string;
}

const post = (path: string, body: (v: string) => object) => (v: string) => call(env, "POST", path, { as: owner, body: body(v) });
let n = 0;
const RULES: Rule[] = [
  { op: "post /api/auth/register", field: "displayName", max: DISPLAY_NAME_MAX, send: (v) => call(env, "POST", "/api/admin/invites", { as: owner, body: {} }).then((i) => call(env, "POST", "/api/auth/register", { body: { email: `p${++n}@example.com`, displayName: v, password: "correct horse battery staple", inviteToken: i.body.token } })) },
  { op: "post /api/auth/register", field: "password", max: PASSWORD_MAX, value: (k) => "correct horse ".repeat(30).slice(0, k), send: (v) => call(env, "POST", "/api/admin/invites", { as: owner, body: {} }).then((i) => call(env, "POST", "/api/auth/register", { body: { email: `q${++n}@example.com`, displayName: "Q", password: v, inviteToken: i.body.token } })) },
  { op: "post /api/admin/invites", field: "message", max: INVITE_MESSAGE_MAX, send: post("/api/admin/invites", (v) => ({ message: v })) },
  { op: "post /api/groups", field: "name", max: GROUP_NAME_MAX, send: post("/api/groups", (v) => ({ name: v.slice(0, -3) + String(++n).padStart(3, "0") })) },
  { op: "post /api/groups", field: "description", max: GROUP_DESCRIPTION_MAX, send: post("/api/groups", (v) => ({ name: `Group ${++n}`, description: v })) },
  { op: "post /api/api-tokens", field: "name", max: TOKEN_NAME_MAX, send: post("/api/api-tokens", (v) => ({ name: v })) },
  { op: "post /api/pages", field: "title", max: TITLE_MAX, send: post("/api/pages", (v) => ({ spaceId, title: v })) },
  { op: "post /api/spaces", field: "name", max: SPACE_NAME_MAX, send: post("/api/spaces", (v) => ({ key: `K${++n}`, name: v })) },
  { op: "post /api/spaces", field: "description", max: SPACE_DESCRIPTION_MAX, send: post("/api/spaces", (v) => ({ key: `D${++n}`, name: "Described", description: v })) },
  { op: "post /api/templates", field: "name", max: TEMPLATE_NAME_MAX, send: post("/api/templates", (v) => ({ name: v })) },
  { op: "post /api/templates", field: "description", max: TEMPLATE_DESCRIPTION_MAX, send: post("/api/templates", (v) => ({ name: `T${++n}`, description: v })) },
];

/** The body schema of an operation, with $refs followed. */
function bodySchema(op: string): any {
  const [method, path] = op.split(" ");
  const operation = openapi.paths[path]?.[method];
  if (!operation) throw new Error(`no operation ${op} in the OpenAPI document`);
  let schema = operation.requestBody?.content?.["application/json"]?.schema;
  if (schema?.$ref) schema = openapi.components.schemas[schema.$ref.split("/").pop()];
  return schema;
}

describe("limits: OpenAPI advertises what the service enforces", () => {
  test.each(RULES.map((r) => [`${r.op} ${r.field}`, r] as const))("%s", async (_name, rule) => {
    const property = bodySchema(rule.op).properties[rule.field];
    const advertised = property.maxLength ?? property.anyOf?.find((s: any) => s.maxLength)?.maxLength;
    expect(advertised).toBe(rule.max);
    const value = rule.value ?? ((k: number) => "x".repeat(k));
    const atLimit = await rule.send(value(rule.max));
    expect(atLimit.status).toBeLessThan(300);
    const over = await rule.send(value(rule.max + 1));
    expect(over.status).toBe(400);
    expect(over.body.field ?? Object.keys(over.body.errors ?? {})[0]).toBe(rule.field);
  });
});

test("a page's change comment advertises its limit", () => {
  const put = openapi.paths["/api/pages/{id}"].put.requestBody.content["application/json"].schema;
  const schema = put.$ref ? openapi.components.schemas[put.$ref.split("/").pop()] : put;
  const comment = schema.properties.changeComment;
  expect(comment.maxLength ?? comment.anyOf?.find((s: any) => s.maxLength)?.maxLength).toBe(COMMENT_MAX);
});
