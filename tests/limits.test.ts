/**
 * One number per rule (docs/decisions.md, "Schema limits are the services' numbers" and "Body
 * limits are declared with each route"): every length limit a service enforces is one exported
 * constant, the route schema is built from it, so OpenAPI advertises exactly the number the service
 * enforces. Table-driven: for each rule, the advertised maxLength equals the constant, a value at
 * the limit is taken and one character more is a 400 naming the field.
 *
 * Body sizes likewise: each route declares its limit (http/body.ts bodyLimit), OpenAPI shows it
 * (`x-body-limit`, the sentence on the request body, the 413), and a body of exactly that many
 * bytes is taken while one byte more is a 413 naming it, with Content-Length or without.
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
import { ATTACHMENT_MAX_BYTES } from "../src/attachments/service";
import { KB, MB } from "../src/http/body";
import { BASE, call, makeEnv, PASSWORD, signUp, type TestEnv } from "./harness";

let env: TestEnv;
let openapi: any;
let owner: { cookie: string };
let spaceId = "";
let pageId = "";

beforeAll(async () => {
  env = makeEnv();
  openapi = (await call(env, "GET", "/api/openapi.json")).body;
  owner = await signUp(env, "owner@example.com");
  spaceId = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "LIM", name: "Limits" } })).body.id;
  pageId = (await call(env, "POST", "/api/pages", { as: owner, body: { spaceId, title: "Sized" } })).body.id;
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
  {
    op: "post /api/auth/register",
    field: "displayName",
    max: DISPLAY_NAME_MAX,
    send: (v) =>
      call(env, "POST", "/api/admin/invites", { as: owner, body: {} }).then((i) =>
        call(env, "POST", "/api/auth/register", {
          body: { email: `p${++n}@example.com`, displayName: v, password: "correct horse battery staple", inviteToken: i.body.token },
        }),
      ),
  },
  {
    op: "post /api/auth/register",
    field: "password",
    max: PASSWORD_MAX,
    value: (k) => "correct horse ".repeat(30).slice(0, k),
    send: (v) =>
      call(env, "POST", "/api/admin/invites", { as: owner, body: {} }).then((i) =>
        call(env, "POST", "/api/auth/register", {
          body: { email: `q${++n}@example.com`, displayName: "Q", password: v, inviteToken: i.body.token },
        }),
      ),
  },
  { op: "post /api/admin/invites", field: "message", max: INVITE_MESSAGE_MAX, send: post("/api/admin/invites", (v) => ({ message: v })) },
  {
    op: "post /api/groups",
    field: "name",
    max: GROUP_NAME_MAX,
    send: post("/api/groups", (v) => ({ name: v.slice(0, -3) + String(++n).padStart(3, "0") })),
  },
  {
    op: "post /api/groups",
    field: "description",
    max: GROUP_DESCRIPTION_MAX,
    send: post("/api/groups", (v) => ({ name: `Group ${++n}`, description: v })),
  },
  { op: "post /api/api-tokens", field: "name", max: TOKEN_NAME_MAX, send: post("/api/api-tokens", (v) => ({ name: v })) },
  { op: "post /api/pages", field: "title", max: TITLE_MAX, send: post("/api/pages", (v) => ({ spaceId, title: v })) },
  { op: "post /api/spaces", field: "name", max: SPACE_NAME_MAX, send: post("/api/spaces", (v) => ({ key: `K${++n}`, name: v })) },
  {
    op: "post /api/spaces",
    field: "description",
    max: SPACE_DESCRIPTION_MAX,
    send: post("/api/spaces", (v) => ({ key: `D${++n}`, name: "Described", description: v })),
  },
  { op: "post /api/templates", field: "name", max: TEMPLATE_NAME_MAX, send: post("/api/templates", (v) => ({ name: v })) },
  {
    op: "post /api/templates",
    field: "description",
    max: TEMPLATE_DESCRIPTION_MAX,
    send: post("/api/templates", (v) => ({ name: `T${++n}`, description: v })),
  },
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

/** A body of `head`, `fill` spaces (or file bytes) and `tail`, all ASCII. */
interface Sized {
  head: string;
  fill: number;
  tail?: string;
  type: string;
}

const CHUNK = 64 * KB;

/** The body handed over chunk by chunk as the server pulls it; `pulled` says how far it read. */
function streamOf({ head, fill, tail = "" }: Sized, byte: number) {
  const state = { pulled: 0 };
  let left = fill;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let out: Uint8Array;
      if (stage === 0) [out, stage] = [Buffer.from(head), left > 0 ? 1 : 2];
      else if (stage === 1) {
        out = Buffer.alloc(Math.min(CHUNK, left), byte);
        left -= out.length;
        if (left === 0) stage = 2;
      } else if (stage === 2) [out, stage] = [Buffer.from(tail), 3];
      else return controller.close();
      state.pulled += out.length;
      controller.enqueue(out);
    },
  });
  return { body, state };
}

interface SizeRule {
  kind: string;
  method: string;
  /** The operation's path in the OpenAPI document. */
  path: string;
  limit: number;
  /** Whether the route reads its own (multipart) body: its limit counts the file, not the framing. */
  streamed?: boolean;
  url: () => string;
  /** A body whose counted bytes are exactly `size`. */
  body: (size: number) => Sized;
  /** What a body at the limit answers. */
  ok: number;
  signedIn?: boolean;
}

let made = 0;
/** JSON padded with spaces (still JSON) to exactly `size` bytes. */
const json =
  (value: object) =>
  (size: number): Sized => {
    const head = JSON.stringify(value);
    return { head, fill: size - head.length, type: "application/json" };
  };
const BOUNDARY = "----cairn-size-test";
const SIZE_RULES: SizeRule[] = [
  {
    kind: "auth",
    method: "POST",
    path: "/api/auth/login",
    limit: 16 * KB,
    url: () => "/api/auth/login",
    body: (n) => json({ email: "owner@example.com", password: PASSWORD })(n),
    ok: 200,
  },
  {
    kind: "page",
    method: "PUT",
    path: "/api/pages/{id}",
    limit: 8 * MB,
    url: () => `/api/pages/${pageId}`,
    body: (n) => json({ title: "Sized" })(n),
    ok: 200,
    signedIn: true,
  },
  {
    kind: "template",
    method: "POST",
    path: "/api/templates",
    limit: 8 * MB,
    url: () => "/api/templates",
    body: (n) => json({ name: `Sized ${++made}` })(n),
    ok: 201,
    signedIn: true,
  },
  {
    kind: "upload",
    method: "POST",
    path: "/api/pages/{id}/attachments",
    limit: ATTACHMENT_MAX_BYTES,
    streamed: true,
    url: () => `/api/pages/${pageId}/attachments`,
    body: (n) => ({
      head:
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ` +
        `filename="sized.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      fill: n,
      tail: `\r\n--${BOUNDARY}--\r\n`,
      type: `multipart/form-data; boundary=${BOUNDARY}`,
    }),
    ok: 201,
    signedIn: true,
  },
  {
    kind: "default",
    method: "POST",
    path: "/api/groups",
    limit: 1 * MB,
    url: () => "/api/groups",
    body: (n) => json({ name: `Sized ${++made}` })(n),
    ok: 201,
    signedIn: true,
  },
];

function send(rule: SizeRule, size: number, withLength: boolean) {
  const sized = rule.body(size);
  const { body, state } = streamOf(sized, rule.streamed ? 0x61 : 0x20);
  const length = sized.head.length + sized.fill + (sized.tail?.length ?? 0);
  const headers: Record<string, string> = {
    "content-type": sized.type,
    "x-requested-with": "Cairn",
    ...(withLength ? { "content-length": String(length) } : {}),
  };
  if (rule.signedIn) headers.cookie = `cairn_session=${owner.cookie}`;
  // @ts-expect-error: Bun needs no duplex, other runtimes do
  const request = new Request(`${BASE}${rule.url()}`, { method: rule.method, headers, body, duplex: "half" });
  return { answer: env.handle(request), state, head: sized.head.length };
}

describe("body sizes: each route's limit is advertised and enforced while reading", () => {
  const cases = SIZE_RULES.flatMap((rule) =>
    [true, false].map(
      (withLength) =>
        [`${rule.kind} ${rule.method} ${rule.path}, ${withLength ? "with Content-Length" : "chunked"}`, rule, withLength] as const,
    ),
  );

  test.each(SIZE_RULES.map((r) => [r.kind, r] as const))("%s: OpenAPI shows the limit and its 413", (_kind, rule) => {
    const op = openapi.paths[rule.path][rule.method.toLowerCase()];
    expect(op.requestBody["x-body-limit"]).toBe(rule.limit);
    expect(op.requestBody.description).toContain("413 `payload_too_large`");
    expect(op.responses["413"].content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
    expect(op["x-body-limit"]).toBeUndefined(); // the route's declaration is not left on the operation
  });

  test.each(cases)("%s: at the limit it is taken, one byte more is a 413 naming it", async (_name, rule, withLength) => {
    const at = send(rule, rule.limit, withLength);
    const taken = await at.answer;
    expect(taken.status).toBe(rule.ok);
    await taken.body?.cancel();

    const over = send(rule, rule.limit + 1, withLength);
    const refused = await over.answer;
    expect(refused.status).toBe(413);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: "payload_too_large", limit: rule.limit });
    // The 413 says what the document says.
    expect(openapi.paths[rule.path][rule.method.toLowerCase()].requestBody.description).toStartWith(problem.detail);
    // Never read much past the limit; a declared length over it is refused before reading (an
    // upload's length includes its framing, so the upload counts the file's bytes instead).
    expect(over.state.pulled).toBeLessThanOrEqual(rule.limit + 2 * CHUNK + 1 * KB);
    if (withLength && !rule.streamed) expect(over.state.pulled).toBeLessThanOrEqual(over.head + CHUNK);
  });

  test("a path no route answers holds no more than the default: a longer declared body is a 413, a chunked one is not read", async () => {
    const declared = await call(env, "POST", "/api/nothing/here", {
      as: owner,
      body: "{}",
      headers: { "content-type": "application/json", "content-length": String(MB + 1) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ code: "payload_too_large", limit: MB });
    const { body, state } = streamOf({ head: "{", fill: 50 * MB, type: "application/json" }, 0x20);
    const res = await env.handle(
      new Request(`${BASE}/api/nothing/here`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "Cairn", cookie: `cairn_session=${owner.cookie}` },
        body,
        // @ts-expect-error: Bun needs no duplex, other runtimes do
        duplex: "half",
      }),
    );
    expect(res.status).toBe(404);
    expect(state.pulled).toBeLessThan(MB);
  });

  test("a route that declares no limit takes the default", () => {
    const put = openapi.paths["/api/pages/{id}/move"].put;
    expect(put.requestBody["x-body-limit"]).toBe(MB);
  });
});
