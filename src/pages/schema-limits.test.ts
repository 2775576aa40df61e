/**
 * The limits the API description shows are the ones the services enforce (docs/decisions.md,
 * "Schema limits are the services' numbers"): each schema's maxLength is built from the service's
 * constant (one number per rule), the description names the same number, and no field is described
 * as required where it is optional.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { MAX_ANCHOR_BYTES, MAX_BODY_CHARS } from "../comments/service";
import { MAX_CONTENT_BYTES } from "../content/validate";
import * as spaces from "../spaces/service";
import * as templates from "../templates/service";
import { COMMENT_MAX, TITLE_MAX } from "./input";

let env: TestEnv;
let doc: any;
beforeAll(async () => {
  env = makeEnv();
  doc = (await call(env, "GET", "/api/openapi.json")).body;
});
afterAll(() => env.close());

const bodyOf = (method: string, path: string) => doc.paths[path][method.toLowerCase()].requestBody.content["application/json"].schema;
/** A nullable field is written either flat or as anyOf [string, null]. */
const stringPart = (p: any) => (p.anyOf ? p.anyOf.find((s: any) => s.type === "string") : p);

// [method, path, field, maxLength in the schema, the rule's number in its description]
const LIMITS: Array<[string, string, string, number, number]> = [
  ["POST", "/api/pages", "title", TITLE_MAX, TITLE_MAX],
  ["POST", "/api/pages", "contentJson", MAX_CONTENT_BYTES, MAX_CONTENT_BYTES],
  ["PUT", "/api/pages/{id}", "title", TITLE_MAX, TITLE_MAX],
  ["PUT", "/api/pages/{id}", "changeComment", COMMENT_MAX, COMMENT_MAX],
  ["POST", "/api/pages/{id}/publish", "title", TITLE_MAX, TITLE_MAX],
  ["POST", "/api/spaces", "key", spaces.KEY_MAX, spaces.KEY_MAX],
  ["POST", "/api/spaces", "name", spaces.NAME_MAX, spaces.NAME_MAX],
  ["POST", "/api/spaces", "description", spaces.DESCRIPTION_MAX, spaces.DESCRIPTION_MAX],
  ["PUT", "/api/spaces/{key}", "name", spaces.NAME_MAX, spaces.NAME_MAX],
  ["PUT", "/api/spaces/{key}", "description", spaces.DESCRIPTION_MAX, spaces.DESCRIPTION_MAX],
  ["POST", "/api/templates", "name", templates.NAME_MAX, templates.NAME_MAX],
  ["POST", "/api/templates", "description", templates.DESCRIPTION_MAX, templates.DESCRIPTION_MAX],
  ["POST", "/api/templates", "contentJson", MAX_CONTENT_BYTES, MAX_CONTENT_BYTES],
  ["PUT", "/api/templates/{id}", "name", templates.NAME_MAX, templates.NAME_MAX],
  ["PUT", "/api/templates/{id}", "description", templates.DESCRIPTION_MAX, templates.DESCRIPTION_MAX],
  // Code points in the rule, UTF-16 units in maxLength: an emoji is one character and two units.
  ["POST", "/api/pages/{id}/comments", "body", 2 * MAX_BODY_CHARS, MAX_BODY_CHARS],
  ["PUT", "/api/comments/{id}", "body", 2 * MAX_BODY_CHARS, MAX_BODY_CHARS],
  ["POST", "/api/pages/{id}/comments", "anchorJson", MAX_ANCHOR_BYTES, MAX_ANCHOR_BYTES],
];

describe("request limits in the API description", () => {
  test.each(LIMITS)("%s %s: %s has maxLength %d and names %d", (method, path, field, maxLength, rule) => {
    const prop = stringPart(bodyOf(method, path).properties[field]);
    expect(prop.maxLength).toBe(maxLength);
    expect(prop.description).toContain(String(rule));
  });

  test("no body field of pages, spaces, templates or comments is described as required unless it is", () => {
    const wrong: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!/^\/api\/(pages|spaces|templates|comments)\b/.test(path)) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        const schema = op.requestBody?.content?.["application/json"]?.schema;
        for (const [field, p] of Object.entries<any>(schema?.properties ?? {})) {
          const described: string = stringPart(p).description ?? p.description ?? "";
          if (/\brequired\b/i.test(described) && !(schema.required ?? []).includes(field)) wrong.push(`${method} ${path} ${field}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("the limits as enforced", () => {
  test("a title, a space name and a template name at the limit pass; one more is a 400 naming the field", async () => {
    const e = makeEnv();
    try {
      const { owner } = await ownerAndMember(e);
      const space = await call(e, "POST", "/api/spaces", {
        as: owner,
        body: { key: "K".repeat(spaces.KEY_MAX), name: "n".repeat(spaces.NAME_MAX) },
      });
      expect(space.status).toBe(201);
      expect(
        (await call(e, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "n".repeat(spaces.NAME_MAX + 1) } })).body.field,
      ).toBe("name");
      const page = await call(e, "POST", "/api/pages", { as: owner, body: { spaceId: space.body.id, title: "t".repeat(TITLE_MAX) } });
      expect(page.status).toBe(201);
      const longer = await call(e, "PUT", `/api/pages/${page.body.id}`, { as: owner, body: { title: "t".repeat(TITLE_MAX + 1) } });
      expect(longer).toMatchObject({ status: 400, body: { field: "title" } });
      expect(longer.body.detail).toContain(String(TITLE_MAX));
      const comment = await call(e, "PUT", `/api/pages/${page.body.id}`, {
        as: owner,
        body: { title: "T", changeComment: "c".repeat(COMMENT_MAX + 1) },
      });
      expect(comment).toMatchObject({ status: 400, body: { field: "changeComment" } });
      expect((await call(e, "POST", "/api/templates", { as: owner, body: { name: "n".repeat(templates.NAME_MAX + 1) } })).body.field).toBe(
        "name",
      );
    } finally {
      e.close();
    }
  });
});
