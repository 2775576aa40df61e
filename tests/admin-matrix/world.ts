/**
 * The world the admin matrix runs in, built through the public API (roles with one right are
 * written straight to the roles table: the roles API is itself one of the routes under test).
 *
 * Callers: anonymous; member (User); holder (a Member-tier custom role holding only the row's
 * right); otherAdmin (an Admin-tier custom role holding every right but the row's); admin
 * (Administrator); owner; ownerToken and readOnlyToken (the owner's API tokens); staleOwner (an
 * owner's session that has not proved its password in the last 5 minutes).
 */
import { createSession } from "../../src/auth/sessions";
import { ALL_RIGHTS, BUILT_IN_ROLES, ROLE_ID, type Right } from "../../src/identity/rights";
import { newId } from "../../src/platform/crypto";
import { call, makeEnv, mintToken, signUp, type TestEnv, type Who } from "../harness";
import type { AdminRow, MatrixCtx } from "./types";

export const CALLERS = [
  "anonymous",
  "member",
  "holder",
  "otherAdmin",
  "admin",
  "owner",
  "ownerToken",
  "readOnlyToken",
  "staleOwner",
] as const;
export type CallerName = (typeof CALLERS)[number];

export interface MatrixWorld {
  env: TestEnv;
  owner: Who & { id: string };
  member: Who & { id: string };
  admin: Who & { id: string };
  ownerToken: Who;
  readOnlyToken: Who;
  staleOwner: Who;
  /** Accounts holding exactly one right (holder) or every right but one (otherAdmin), made when first asked. */
  holderOf(right: Right): Promise<Who & { id: string }>;
  otherAdminOf(right: Right): Promise<Who & { id: string }>;
  ctx(caller: string): MatrixCtx;
}

let people = 0;

export async function buildWorld(): Promise<MatrixWorld> {
  const env = makeEnv();
  const owner = await signUp(env, "owner@example.com", { displayName: "Owner" });
  const join = async (name: string, roleId?: string) => {
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    if (invite.status !== 201) throw new Error(`invite: ${invite.status} ${invite.text}`);
    const who = await signUp(env, `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${++people}@example.com`, {
      inviteToken: invite.body.token,
      displayName: name,
    });
    if (roleId) env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(roleId, who.id);
    return who;
  };
  const role = (name: string, tier: number, permissions: string[]) => {
    const id = newId();
    env.core.sqlite
      .query("INSERT INTO roles (id, name, description, tier, built_in, permissions, created_at) VALUES (?, ?, '', ?, 0, ?, ?)")
      .run(id, name, tier, JSON.stringify(permissions), new Date(env.clock.now()).toISOString());
    return id;
  };
  const member = await join("Member");
  const admin = await join("Admin", ROLE_ID.admin);
  const ownerToken = { token: await mintToken(env, owner, { name: "matrix" }) };
  const readOnlyToken = { token: await mintToken(env, owner, { name: "matrix read-only", readOnly: true }) };
  const staleOwner = { cookie: createSession(env.core, owner.id, { ip: "127.0.0.1", userAgent: null, reauthAt: null }).value };
  const holders = new Map<Right, Promise<Who & { id: string }>>();
  const others = new Map<Right, Promise<Who & { id: string }>>();
  const ids: Record<string, string> = { owner: owner.id, member: member.id, admin: admin.id };
  const world: MatrixWorld = {
    env,
    owner,
    member,
    admin,
    ownerToken,
    readOnlyToken,
    staleOwner,
    holderOf(right) {
      if (!holders.has(right)) holders.set(right, join(`Holder ${right}`, role(`Only ${right}`, 0, [right])));
      return holders.get(right)!;
    },
    otherAdminOf(right) {
      if (!others.has(right))
        others.set(
          right,
          join(
            `Other ${right}`,
            role(
              `All but ${right}`,
              1,
              ALL_RIGHTS.filter((r) => r !== right),
            ),
          ),
        );
      return others.get(right)!;
    },
    ctx(caller) {
      return {
        env,
        caller,
        ids,
        owner,
        freshUser: async () => (await join("Fresh")).id,
        freshSpace: async () => {
          const key = `M${(++people).toString(36).toUpperCase()}${Math.random().toString(36).slice(2, 6).toUpperCase()}`
            .replace(/[^A-Z0-9]/g, "")
            .slice(0, 10);
          const res = await call(env, "POST", "/api/spaces", { as: owner, body: { key, name: `Space ${key}` } });
          if (res.status !== 201) throw new Error(`space: ${res.status} ${res.text}`);
          return res.body.key as string;
        },
      };
    },
  };
  return world;
}

const defaultsOf = (roleId: string) => BUILT_IN_ROLES.find((r) => r.id === roleId)!.permissions as readonly string[];

/** The status a caller should get from a row, from its need, reauth, sessionOnly and method. */
export function expectedFor(row: AdminRow, caller: CallerName): number {
  const method = row.route.split(" ")[0]!;
  const { need } = row;
  if (caller === "anonymous") return need === "anyone" ? row.ok : 401;
  if (caller === "readOnlyToken" && method !== "GET") return 403;
  const tokenCaller = caller === "ownerToken" || caller === "readOnlyToken";
  const allowed =
    need === "anyone" || need === "signedIn"
      ? true
      : need === "owner"
        ? caller === "owner" || caller === "ownerToken" || caller === "readOnlyToken" || caller === "staleOwner"
        : caller === "holder" || caller === "owner" || tokenCaller || caller === "staleOwner"
          ? true
          : caller === "member"
            ? defaultsOf(ROLE_ID.user).includes(need)
            : caller === "admin"
              ? defaultsOf(ROLE_ID.admin).includes(need)
              : false; // otherAdmin: every right but this one
  if (!allowed) return 403;
  if (tokenCaller && (row.sessionOnly || row.reauth)) return 403;
  if (caller === "staleOwner" && row.reauth) return 403;
  return row.ok;
}
