import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import type { UserCaller } from "../identity/caller";
import { GROUP_ID } from "../identity/builtin-groups";
import { newPage, newSpace } from "../pages/testing";
import { putGrant } from "../permissions/grants";
import { findSpaceByKey } from "../spaces/service";
import { findUserWithRoleByEmail } from "../users/service";
import { restrictionsPassed } from "./pages";
import { canEditSpace, canReadSpace } from "./spaces";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

function callerFor(email: string): UserCaller {
  const found = findUserWithRoleByEmail(env.core, email)!;
  return {
    kind: "user",
    ip: "local",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
}

/**
 * A write made outside a transaction (here: "underneath", as a hand edit would) is seen from the
 * next synchronous run on: the change stamp is read once per run (docs/decisions.md, "The change
 * stamp is read once per synchronous run"), as the next request would be.
 */
const nextRun = () => Promise.resolve();

describe("callers across changes (the memo of space operations, kept between requests and inside transactions)", () => {
  test("sees grants added through the services, removed underneath, and never a rolled-back one", async () => {
    const who = await ownerAndMember(env);
    await newSpace(env, who.owner, "DOCS");
    const owner = callerFor("owner@example.com");
    const member = callerFor("member@example.com");
    const space = () => findSpaceByKey(env.core, "DOCS")!;
    env.core.sqlite.run("DELETE FROM space_grants WHERE principal_id = ?", [GROUP_ID.everyone]);
    await nextRun();
    expect(canReadSpace(env.core, member, space())).toBe(false);
    putGrant(env.core, owner, "DOCS", { principalType: 0, principalId: member.user.id, operation: 1 });
    expect(canEditSpace(env.core, member, space())).toBe(true);
    env.core.sqlite.run("DELETE FROM space_grants WHERE principal_id = ?", [member.user.id]);
    await nextRun();
    expect(canReadSpace(env.core, member, space())).toBe(false);
    expect(() =>
      env.core.tx(() => {
        putGrant(env.core, owner, "DOCS", { principalType: 0, principalId: member.user.id, operation: 0 });
        expect(canReadSpace(env.core, member, space())).toBe(true);
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    expect(canReadSpace(env.core, member, space())).toBe(false);
  });
});

describe("restrictions passed, kept until anything changes", () => {
  test("follow restrictions added, removed underneath and rolled back", async () => {
    const who = await ownerAndMember(env);
    const space = await newSpace(env, who.owner, "DOCS");
    const page = await newPage(env, who.owner, space.id, "P");
    const member = callerFor("member@example.com");
    const restrict = () =>
      env.core.sqlite.run(
        "INSERT INTO page_restrictions (id, page_id, principal_type, principal_id, " +
          "operation, created_at) VALUES ('r1', ?, 0, ?, 0, '2026-01-01')",
        [page.id, who.owner.id],
      );
    expect(restrictionsPassed(env.core, member, page.id).view).toBe(true);
    expect(() =>
      env.core.tx(() => {
        restrict();
        expect(restrictionsPassed(env.core, member, page.id).view).toBe(false);
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    expect(restrictionsPassed(env.core, member, page.id).view).toBe(true);
    restrict();
    await nextRun();
    expect(restrictionsPassed(env.core, member, page.id)).toEqual({ view: false, edit: true });
    env.core.sqlite.run("DELETE FROM page_restrictions");
    await nextRun();
    expect(restrictionsPassed(env.core, member, page.id).view).toBe(true);
  });
});
