/**
 * Helpers for the /api/admin/users tests (admin-users.test.ts, admin-users-status.test.ts): people
 * invited into the test instance, a team of owner, administrator and member, custom roles.
 */
import { call, signUp, type TestEnv } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { newId } from "../platform/crypto";

export type Person = Awaited<ReturnType<typeof signUp>>;
type As = Person | { cookie?: string; token?: string };

/** The helpers, on the instance `envOf()` answers at the time of the call (each test makes its own). */
export function adminUsersKit(envOf: () => TestEnv) {
  async function invitee(owner: Person, name: string, roleId?: string): Promise<Person> {
    const env = envOf();
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    const who = await signUp(env, `${name.toLowerCase()}@example.com`, { inviteToken: invite.body.token, displayName: name });
    if (roleId) env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(roleId, who.id);
    return who;
  }

  /** An owner, an administrator and a member, each signed in. */
  async function team() {
    const owner = await signUp(envOf(), "owner@example.com", { displayName: "Olive Owner" });
    const admin = await invitee(owner, "Ada", ROLE_ID.admin);
    const member = await invitee(owner, "Max");
    return { owner, admin, member };
  }

  function customRole(name: string, tier: number, permissions: string[]): string {
    const env = envOf();
    const id = newId();
    env.core.sqlite
      .query("INSERT INTO roles (id, name, description, tier, built_in, permissions, created_at) VALUES (?, ?, '', ?, 0, ?, ?)")
      .run(id, name, tier, JSON.stringify(permissions), new Date(env.clock.now()).toISOString());
    return id;
  }

  const put = (as: As, path: string, body: unknown) => call(envOf(), "PUT", path, { as, body });
  const post = (as: As, path: string, body?: unknown) => call(envOf(), "POST", path, { as, body });
  return { invitee, team, customRole, put, post };
}
