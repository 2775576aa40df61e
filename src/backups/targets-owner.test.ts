/**
 * Backup targets are the owner's decision (docs/decisions.md, "Backups are the owner's data"): an
 * administrator, who cannot read a private space, must not send every backup to a place of their
 * choosing. Setting a slot needs backups.restore (as a restore does); copying to a slot nobody
 * holding it has set needs it too; every slot set, changed or removed reaches the owner (a
 * notification, a security event). The folder slot refuses system folders, the binary's and the
 * data's folders and names with control characters; its test writes nothing outside the chosen
 * folder.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { newId } from "../platform/crypto";
import { settled } from "./jobs";
import { binaryFolder } from "./target-folders";
import { targetsPath, updateTargets } from "./targets-store";
import { randomData, writeTestBackup } from "./targets-testing";

const PATH = "/api/admin/backups/targets";

let env: TestEnv;
let owner: Who & { id: string };
let admin: Who & { id: string };
let keeper: Who & { id: string };
const scratch = mkdtempSync(join(tmpdir(), "cairn-owner-targets-"));

async function invitee(name: string, roleId: string) {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const who = await signUp(env, `${name}@example.com`, { inviteToken: invite.body.token, displayName: name });
  env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(roleId, who.id);
  return who;
}

beforeAll(async () => {
  env = makeEnv();
  owner = await signUp(env, "owner@example.com", { displayName: "Olive Owner" });
  admin = await invitee("ada", ROLE_ID.admin);
  // An Admin-tier role the owner gave backups.restore: it may choose targets, and the owner hears of it.
  const role = newId();
  env.core.sqlite
    .query(
      "INSERT INTO roles (id, name, description, tier, built_in, permissions, created_at) VALUES (?, 'Backup keepers', '', 1, 0, ?, ?)",
    )
    .run(role, JSON.stringify(["backups.manage", "backups.restore"]), new Date(env.clock.now()).toISOString());
  keeper = await invitee("kim", role);
  await writeTestBackup(env.core, "2026-11-20T03-00-00Z", { dbBytes: randomData(50_000), files: [randomData(500)] });
});
afterAll(() => {
  env.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  for (const slot of ["directory", "s3"] as const) {
    const job = (await call(env, "GET", PATH, { as: owner })).body.copying?.[slot];
    if (job) await settled(env.core, job.id);
  }
  updateTargets(env.core, (f) => {
    f.directory = null;
    f.s3 = null;
  });
});

const put = (as: Who, body: Record<string, unknown>) => call(env, "PUT", `${PATH}/directory`, { as, body });
const folder = (name: string) => {
  const f = join(scratch, name);
  mkdirSync(f, { recursive: true });
  return f;
};
const copyAndWait = async (as: Who) => {
  const res = await call(env, "POST", `${PATH}/directory/copy`, { as });
  if (res.status === 202) return { status: 202, job: await settled(env.core, res.body.job.id) };
  return { status: res.status, body: res.body };
};

describe("the folder slot refuses system folders and unreadable names (400 naming path)", () => {
  const data = () => env.core.data.root;
  const bad: Array<[string, () => string]> = [
    ["the root", () => "/"],
    ["the root, spelt with two slashes", () => "//"],
    ["/etc", () => "/etc"],
    ["/etc, spelt //etc/", () => "//etc/"],
    ["inside /etc", () => "/etc/cairn-backups"],
    ["/root", () => "/root"],
    ["inside /root", () => "/root/backups"],
    ["/usr", () => "/usr"],
    ["inside /usr", () => "/usr/local/share/cairn"],
    ["/bin", () => "/bin"],
    ["/sbin", () => "/sbin"],
    ["/proc", () => "/proc"],
    ["inside /proc", () => "/proc/self/cwd"],
    ["/sys", () => "/sys/kernel"],
    ["/dev", () => "/dev"],
    ["inside /dev", () => "/dev/shm/cairn"],
    ["/boot", () => "/boot"],
    ["/run", () => "/run/cairn"],
    ["/mnt itself", () => "/mnt"],
    ["/tmp itself", () => "/tmp"],
    ["/home itself", () => "/home"],
    ["the binary's own folder", () => binaryFolder()],
    ["inside the binary's folder", () => join(binaryFolder(), "backups")],
    ["the data directory", () => data()],
    ["inside the data directory", () => join(data(), "backups-copy")],
    ["a folder holding the data directory", () => dirname(data())],
    ["a line break", () => join(scratch, "a\nb")],
    ["a line break at the end", () => `${join(scratch, "a")}\n`],
    ["a tab", () => join(scratch, "a\tb")],
    ["an escape sequence", () => join(scratch, "\u001b[31mred")],
    ["DEL", () => join(scratch, "a\u007f")],
    ["a C1 control", () => join(scratch, "a\u0085b")],
    ["a zero-width space", () => join(scratch, "back\u200bups")],
    ["a right-to-left override", () => join(scratch, "\u202espu")],
    ["a link to /etc", () => (symlinkSync("/etc", join(scratch, "to-etc")), join(scratch, "to-etc"))],
    ["a folder under a link to /etc", () => (symlinkSync("/etc", join(scratch, "etc-link")), join(scratch, "etc-link", "cairn"))],
    ["a link to the data directory", () => (symlinkSync(data(), join(scratch, "to-data")), join(scratch, "to-data"))],
  ];
  test.each(bad)("%s", async (_what, path) => {
    const res = await put(owner, { path: path() });
    expect([res.status, res.body.code, res.body.field]).toEqual([400, "validation_failed", "path"]);
    expect(res.body.detail).toMatch(/^The path /);
    expect(existsSync(targetsPath(env.core)) ? JSON.parse(readFileSync(targetsPath(env.core), "utf8")).directory : null).toBeNull();
  });

  const good: Array<[string, () => string]> = [
    ["a folder of its own", () => folder("usb-disk")],
    ["a disk under /mnt (not mounted yet)", () => "/mnt/backup-disk/cairn"],
    ["under /var", () => "/var/backups/cairn"],
    ["a removable disk under /run/media", () => "/run/media/ada/disk/cairn"],
    ["under /srv", () => "/srv/backups/cairn"],
  ];
  test.each(good)("accepted: %s", async (_what, path) => {
    const res = await put(owner, { path: path() });
    expect([res.status, res.body.directory?.approved]).toEqual([200, true]);
  });
});

describe("the folder's test writes nothing outside it", () => {
  test("a real folder: the probe comes and goes inside it, nothing beside it", async () => {
    const parent = folder("probe-parent");
    const target = join(parent, "target");
    mkdirSync(target);
    expect((await put(owner, { path: target })).status).toBe(200);
    const report = await call(env, "POST", `${PATH}/directory/test`, { as: owner });
    expect(report.body.ok).toBe(true);
    expect(readdirSync(parent)).toEqual(["target"]);
    expect(readdirSync(target)).toEqual([]);
  });

  test("a folder turned into a link to the data directory after it was set: refused, with nothing written there", async () => {
    const target = join(folder("swapped"), "target");
    mkdirSync(target);
    expect((await put(owner, { path: target })).status).toBe(200);
    rmSync(target, { recursive: true });
    symlinkSync(env.core.data.root, target);
    const before = readdirSync(env.core.data.root, { recursive: true }).sort();
    const report = await call(env, "POST", `${PATH}/directory/test`, { as: owner });
    expect(report.body.ok).toBe(false);
    expect(report.body.error).toContain("data directory");
    const copy = await copyAndWait(owner);
    expect(copy.job?.state).toBe("failed");
    expect(readdirSync(env.core.data.root, { recursive: true }).sort()).toEqual(before);
  });
});

describe("where copies go is the owner's decision", () => {
  test("an administrator cannot set a slot (403 naming backups.restore); the owner can", async () => {
    const res = await put(admin, { path: folder("admin-choice") });
    expect([res.status, res.body.code, res.body.permission]).toEqual([403, "permission_required", "backups.restore"]);
    expect((await call(env, "GET", PATH, { as: admin })).body.directory).toBeNull();
    const s3 = await call(env, "PUT", `${PATH}/s3`, {
      as: admin,
      body: { endpoint: "https://attacker.example", region: "us-east-1", bucket: "loot", accessKeyId: "AKIA", secretAccessKey: "x" },
    });
    expect([s3.status, s3.body.permission]).toEqual([403, "backups.restore"]);
    expect((await put(owner, { path: folder("owner-choice") })).status).toBe(200);
  });

  test("an administrator copies to the slot the owner set, not to one nobody holding backups.restore set", async () => {
    const chosen = folder("owner-set");
    expect((await put(owner, { path: chosen })).status).toBe(200);
    expect((await copyAndWait(admin)).job?.state).toBe("succeeded");

    // A slot from before the rule (no approval recorded), e.g. set by an administrator then.
    const old = folder("set-by-admin-before");
    updateTargets(env.core, (f) => {
      f.directory = { path: old, updatedAt: new Date(env.clock.now()).toISOString(), lastTest: null, lastCopy: null };
    });
    expect((await call(env, "GET", PATH, { as: admin })).body.directory.approved).toBe(false);
    const refused = await copyAndWait(admin);
    expect([refused.status, refused.body?.code, refused.body?.permission]).toEqual([403, "permission_required", "backups.restore"]);
    expect(readdirSync(old)).toEqual([]);
    // The owner's copy approves it; the administrator's next copy goes ahead.
    expect((await copyAndWait(owner)).job?.state).toBe("succeeded");
    expect((await call(env, "GET", PATH, { as: admin })).body.directory.approved).toBe(true);
    expect((await copyAndWait(admin)).job?.state).toBe("succeeded");
  });

  test("every slot set, changed or removed is told to the owner and is a security event", async () => {
    const first = folder("keeper-choice");
    expect((await put(keeper, { path: first })).status).toBe(200);
    expect((await put(owner, { path: folder("owner-own-choice") })).status).toBe(200);
    expect((await call(env, "DELETE", `${PATH}/directory`, { as: admin })).status).toBe(204);
    const told = (await call(env, "GET", "/api/notifications", { as: owner })).body.filter(
      (n: { action: string }) => n.action === "backup.target_changed",
    );
    // Newest first; earlier tests' changes (the owner's own among them) were told too.
    expect(
      told.slice(0, 3).map((n: { actorId: string; details: Record<string, unknown> }) => [n.actorId, n.details.action, n.details.where]),
    ).toEqual([
      [admin.id, "removed", join(scratch, "owner-own-choice")],
      [owner.id, "changed", join(scratch, "owner-own-choice")],
      [keeper.id, "added", first],
    ]);
    // Only the owner is told.
    for (const who of [admin, keeper])
      expect(
        (await call(env, "GET", "/api/notifications", { as: who })).body.filter(
          (n: { action: string }) => n.action === "backup.target_changed",
        ),
      ).toEqual([]);
    const events = (await call(env, "GET", "/api/admin/security/events?kind=restore", { as: owner })).body.events.filter(
      (e: { action: string }) => e.action === "backup.target_changed",
    );
    expect(events.slice(0, 3).map((e: { severity: number; actorId: string }) => [e.severity, e.actorId])).toEqual([
      [1, admin.id],
      [1, owner.id],
      [1, keeper.id],
    ]);
  });
});
