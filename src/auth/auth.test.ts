import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { setSetting } from "../settings/service";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("POST /api/auth/register", () => {
  test("the first account becomes the Owner and is signed in", async () => {
    const res = await call(env, "POST", "/api/auth/register", {
      body: { email: " Ada@Example.com ", displayName: "Ada", password: PASSWORD },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: "ada@example.com",
      displayName: "Ada",
      role: 2,
      roleName: "Owner",
      status: 0,
      totpEnabled: false,
    });
    expect(res.body.permissions).toContain("backups.restore");
    expect(res.body).not.toHaveProperty("passwordHash");
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    const me = await call(env, "GET", "/api/auth/me", { as: { cookie: cookieFrom(res) } });
    expect(me.body.id).toBe(res.body.id);
  });

  test("later accounts need an invite unless public registration is on", async () => {
    await signUp(env, "owner@example.com");
    const refused = await call(env, "POST", "/api/auth/register", {
      body: { email: "b@example.com", displayName: "B", password: PASSWORD },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe("inviteToken");
    setSetting(env.core, "allowPublicRegistration", true);
    const ok = await call(env, "POST", "/api/auth/register", { body: { email: "b@example.com", displayName: "B", password: PASSWORD } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ role: 0, roleName: "User" });
  });

  test("an invite is single-use, may be bound to an address, and expires", async () => {
    const owner = await signUp(env, "owner@example.com");
    const bound = await call(env, "POST", "/api/admin/invites", { as: owner, body: { email: "Bound@Example.com", expiresInDays: 2 } });
    expect(bound.status).toBe(201);
    expect(bound.body.path).toBe(`/register?invite=${bound.body.token}`);
    const wrongAddress = await call(env, "POST", "/api/auth/register", {
      body: { email: "other@example.com", displayName: "O", password: PASSWORD, inviteToken: bound.body.token },
    });
    expect(wrongAddress.status).toBe(400);
    expect(wrongAddress.body.field).toBe("email");
    await signUp(env, "bound@example.com", { inviteToken: bound.body.token });
    const reused = await call(env, "POST", "/api/auth/register", {
      body: { email: "bound2@example.com", displayName: "B", password: PASSWORD, inviteToken: bound.body.token },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.field).toBe("inviteToken");

    const open = await call(env, "POST", "/api/admin/invites", { as: owner, body: { expiresInDays: 1 } });
    env.clock.advance(86_400_000 + 1000);
    const expired = await call(env, "POST", "/api/auth/register", {
      body: { email: "late@example.com", displayName: "L", password: PASSWORD, inviteToken: open.body.token },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.field).toBe("inviteToken");
  });

  test.each([
    [{ email: "not-an-email", displayName: "A", password: PASSWORD }, "email"],
    [{ email: "a@example.com", displayName: "   ", password: PASSWORD }, "displayName"],
    [{ email: "a@example.com", displayName: "A", password: "short" }, "password"],
    [{ email: "a@example.com", displayName: "A", password: "x".repeat(257) }, "password"],
    [{ email: "a@example.com", displayName: "A", password: "password123" }, "password"],
    [{ displayName: "A", password: PASSWORD }, "email"],
    [{ email: "a@example.com", displayName: "A" }, "password"],
    [{ email: 42, displayName: "A", password: PASSWORD }, "email"],
  ])("rejects %j naming %s", async (body, field) => {
    const res = await call(env, "POST", "/api/auth/register", { body });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.field).toBe(field);
    expect(res.body.errors[field].length).toBeGreaterThan(0);
    expect((await call(env, "GET", "/api/instance")).body.needsOwner).toBe(true);
  });

  test("a taken e-mail is a 409", async () => {
    await signUp(env, "owner@example.com");
    setSetting(env.core, "allowPublicRegistration", true);
    const res = await call(env, "POST", "/api/auth/register", {
      body: { email: "OWNER@example.com", displayName: "X", password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("email_taken");
  });
});

describe("POST /api/auth/login and /logout", () => {
  test("signs in, and a new session id is issued each time", async () => {
    await signUp(env, "owner@example.com");
    const a = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
    const b = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
    expect(a.status).toBe(200);
    expect(a.body.email).toBe("owner@example.com");
    expect(cookieFrom(a)).not.toBe(cookieFrom(b));
  });

  test("wrong password and unknown e-mail give the same 401 body", async () => {
    await signUp(env, "owner@example.com");
    const wrong = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: "not the password" } });
    const unknown = await call(env, "POST", "/api/auth/login", { body: { email: "nobody@example.com", password: "not the password" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.body.code).toBe("invalid_credentials");
  });

  test("logout ends the session", async () => {
    const owner = await signUp(env, "owner@example.com");
    const out = await call(env, "POST", "/api/auth/logout", { as: owner });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const me = await call(env, "GET", "/api/auth/me", { as: owner });
    expect(me.status).toBe(401);
  });

  test("a suspended account cannot sign in, and its sessions stop working", async () => {
    const { member } = await ownerAndMember(env);
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(member.id);
    expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(401);
    const res = await call(env, "POST", "/api/auth/login", { body: { email: "member@example.com", password: PASSWORD } });
    expect(res.status).toBe(403);
  });
});

describe("GET/PUT /api/auth/me", () => {
  test("anonymous is 401; a token may read but not change the profile", async () => {
    const owner = await signUp(env, "owner@example.com");
    expect((await call(env, "GET", "/api/auth/me")).status).toBe(401);
    const token = await mintToken(env, owner);
    expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body.email).toBe("owner@example.com");
    const put = await call(env, "PUT", "/api/auth/me", { as: { token }, body: { displayName: "Z" } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe("token_not_allowed");
  });

  test("a session that ended is told apart from a first visit (the sign-in screen says so only then)", async () => {
    const owner = await signUp(env, "owner@example.com");
    const first = await call(env, "GET", "/api/auth/me");
    expect(first.status).toBe(401);
    expect(first.body.sessionEnded).toBeUndefined();
    expect(first.headers.get("set-cookie")).toBeNull();
    await call(env, "POST", "/api/auth/logout", { as: owner });
    const ended = await call(env, "GET", "/api/auth/me", { as: owner });
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ code: "unauthenticated", sessionEnded: true });
    // The stale cookie is cleared: the next visit is an ordinary one.
    expect(ended.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  test("changes the display name and validates it", async () => {
    const owner = await signUp(env, "owner@example.com");
    const ok = await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: "  Ada   Lovelace " } });
    expect(ok.status).toBe(200);
    expect(ok.body.displayName).toBe("Ada Lovelace");
    const blank = await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: " " } });
    expect(blank.status).toBe(400);
    expect(blank.body.field).toBe("displayName");
  });
});

describe("PUT /api/auth/me/password", () => {
  test("needs the current password, then signs out the other sessions", async () => {
    const owner = await signUp(env, "owner@example.com");
    const other = cookieFrom(await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } }));
    const wrong = await call(env, "PUT", "/api/auth/me/password", {
      as: owner,
      body: { currentPassword: "nope nope nope", newPassword: "a brand new secret" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe("currentPassword");
    const weak = await call(env, "PUT", "/api/auth/me/password", {
      as: owner,
      body: { currentPassword: PASSWORD, newPassword: "12345678" },
    });
    expect(weak.body.field).toBe("newPassword");

    const ok = await call(env, "PUT", "/api/auth/me/password", {
      as: owner,
      body: { currentPassword: PASSWORD, newPassword: "a brand new secret" },
    });
    expect(ok.status).toBe(204);
    const fresh = cookieFrom(ok);
    expect((await call(env, "GET", "/api/auth/me", { as: { cookie: fresh } })).status).toBe(200);
    expect((await call(env, "GET", "/api/auth/me", { as: { cookie: other } })).status).toBe(401);
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).status).toBe(401);
    const relog = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: "a brand new secret" } });
    expect(relog.status).toBe(200);
  });
});

describe("sessions", () => {
  test("lists sessions, revokes one and the others", async () => {
    const owner = await signUp(env, "owner@example.com");
    const second = cookieFrom(
      await call(env, "POST", "/api/auth/login", {
        body: { email: "owner@example.com", password: PASSWORD },
        headers: { "user-agent": "phone" },
      }),
    );
    const third = cookieFrom(await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } }));
    const list = await call(env, "GET", "/api/auth/me/sessions", { as: owner });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    expect(list.body.filter((s: any) => s.current)).toHaveLength(1);
    const phone = list.body.find((s: any) => s.userAgent === "phone");
    expect(JSON.stringify(list.body)).not.toContain(second);

    expect((await call(env, "DELETE", `/api/auth/me/sessions/${phone.id}`, { as: owner })).status).toBe(204);
    expect((await call(env, "GET", "/api/auth/me", { as: { cookie: second } })).status).toBe(401);
    expect((await call(env, "DELETE", `/api/auth/me/sessions/${phone.id}`, { as: owner })).status).toBe(404);

    expect((await call(env, "DELETE", "/api/auth/me/sessions/others", { as: owner })).status).toBe(204);
    expect((await call(env, "GET", "/api/auth/me", { as: { cookie: third } })).status).toBe(401);
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).status).toBe(200);
  });

  test("someone else's session id is a 404", async () => {
    const { owner, member } = await ownerAndMember(env);
    const theirs = (await call(env, "GET", "/api/auth/me/sessions", { as: member })).body[0].id;
    expect((await call(env, "DELETE", `/api/auth/me/sessions/${theirs}`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(200);
  });

  test("a session expires after 14 idle days and is slid by use", async () => {
    const owner = await signUp(env, "owner@example.com");
    env.clock.advance(13 * 86_400_000);
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).status).toBe(200);
    env.clock.advance(13 * 86_400_000);
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).status).toBe(200);
    env.clock.advance(15 * 86_400_000);
    expect((await call(env, "GET", "/api/auth/me", { as: owner })).status).toBe(401);
  });

  test("the cookie lasts as long as its session can: 90 days from sign-in, and no longer after a new id", async () => {
    const DAY = 86_400_000;
    const maxAge = (a: { headers: Headers }) => Number(/Max-Age=(\d+)/.exec(a.headers.get("set-cookie") ?? "")?.[1]);
    const login = await call(env, "POST", "/api/auth/register", {
      body: { email: "owner@example.com", displayName: "O", password: PASSWORD },
    });
    expect(maxAge(login)).toBe(90 * 86_400);
    let session = { cookie: cookieFrom(login) };
    // Used every ten days, so the 14-day idle expiry never ends it.
    for (let day = 10; day <= 30; day += 10) {
      env.clock.advance(10 * DAY);
      expect((await call(env, "GET", "/api/auth/me", { as: session })).status).toBe(200);
    }
    const reauth = await call(env, "POST", "/api/auth/reauth", { as: session, body: { password: PASSWORD } });
    expect(maxAge(reauth)).toBe(60 * 86_400);
    session = { cookie: cookieFrom(reauth) };
    env.clock.advance(10 * DAY);
    const changed = await call(env, "PUT", "/api/auth/me/password", {
      as: session,
      body: { currentPassword: PASSWORD, newPassword: "a brand new secret" },
    });
    expect(maxAge(changed)).toBe(50 * 86_400);
  });

  test("a session ends after 90 days however much it is used", async () => {
    const owner = await signUp(env, "owner@example.com");
    for (let day = 0; day < 89; day += 10) {
      env.clock.advance(10 * 86_400_000);
      const status = (await call(env, "GET", "/api/auth/me", { as: owner })).status;
      expect(status).toBe(day + 10 < 90 ? 200 : 401);
    }
  });
});
