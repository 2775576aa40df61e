/**
 * Every access rule lives in src/access (docs/permissions.md): the services of pages, spaces,
 * templates and comments ask there and decide nothing about roles, rights or space operations
 * themselves. The behaviour is the matrix's (access-matrix.test.ts); this checks where it lives,
 * and the wiki-wide template rule on its own.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canManageWikiTemplates, requireWikiTemplateManager } from "../src/access/templates";
import * as templateRules from "../src/access/templates";
import { ROLE_ID } from "../src/identity/rights";
import { anonymous, type UserCaller } from "../src/identity/caller";
import { callerFor, makeEnv, ownerAndMember, type TestEnv } from "./harness";

const ROOT = join(import.meta.dir, "..");
const DOMAINS = ["pages", "spaces", "templates", "comments"];

/** What only an access rule does: define require…/can…, read role tiers, ask for rights or space admin. */
const RULE_SHAPES: Array<[string, RegExp]> = [
  ["defines a require…/can… rule", /function (require|can)[A-Z]\w*\s*\(/],
  ["reads a role tier", /\.role\.tier|\bTIER\./],
  ["asks for an instance right", /\bhasRight\(/],
  ["asks whether the caller administers the space", /\bcanAdminSpace\(/],
];

describe("access rules live in src/access", () => {
  test.each(DOMAINS)("src/%s decides no access itself", (domain) => {
    const found: string[] = [];
    for (const file of new Glob(`src/${domain}/**/*.ts`).scanSync(ROOT)) {
      if (file.endsWith(".test.ts") || file.endsWith("testing.ts")) continue;
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [what, shape] of RULE_SHAPES) if (shape.test(text)) found.push(`${file}: ${what}`);
    }
    expect(found).toEqual([]);
  });

  test("access/templates.ts has the one wiki-wide rule, not the old create/change pair", () => {
    expect(Object.keys(templateRules).sort()).toEqual(["canManageWikiTemplates", "requireWikiTemplateManager"]);
  });
});

describe("canManageWikiTemplates", () => {
  let env: TestEnv;
  beforeEach(() => (env = makeEnv()));
  afterEach(() => env.close());

  test("instance administrators and owners who write; not members, read-only tokens or anonymous callers", async () => {
    const { owner, member } = await ownerAndMember(env);
    expect(canManageWikiTemplates(callerFor(env, owner.id))).toBe(true);
    expect(canManageWikiTemplates(callerFor(env, member.id))).toBe(false);
    expect(canManageWikiTemplates(anonymous("local"))).toBe(false);
    env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, member.id);
    const admin = callerFor(env, member.id);
    expect(canManageWikiTemplates(admin)).toBe(true);
    const readOnly = callerFor(env, member.id, { readOnly: true } as UserCaller["token"]);
    expect(canManageWikiTemplates(readOnly)).toBe(false);
    expect(() => requireWikiTemplateManager(readOnly)).toThrow(expect.objectContaining({ problemCode: "read_only_token" }));
    expect(() => requireWikiTemplateManager(callerFor(env, owner.id))).not.toThrow();
    env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.user, member.id);
    expect(() => requireWikiTemplateManager(callerFor(env, member.id))).toThrow(expect.objectContaining({ problemCode: "forbidden" }));
  });
});
