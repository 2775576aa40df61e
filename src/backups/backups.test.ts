import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, cookieFrom, makeEnv, ownerAndMember, PASSWORD, type TestEnv } from "../../tests/harness";
import { uploaded } from "../attachments/testing";
import { blobStore } from "../platform/blobstore";
import { sweepOrphanBlobs } from "../attachments/blob-refs";
import { newPage, newSpace } from "../pages/testing";
import { settled } from "./jobs";
import type { BackupManifest } from "./manifest";
import { describeCopy } from "./queries";
import { describeBackupCopy, startBackupJob, startBackups } from "./service";
import { listManifests, readManifest } from "./store";
import { runBackupNow, sha256File } from "./testing";

let env: TestEnv;

/** Each test of the block starts from an instance of its own. */
function freshInstanceEach() {
  beforeEach(() => (env = makeEnv()));
  afterEach(() => env.close());
}

const DAY = 86_400_000;
const list = (who: { cookie?: string }, query = "") => call(env, "GET", `/api/admin/backups${query}`, { as: who });
const liveCount = (table: string) => (env.core.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

async function scheduled(): Promise<BackupManifest> {
  const job = await settled(env.core, startBackupJob(env.core, "scheduled").id);
  if (job?.state !== "succeeded") throw new Error(JSON.stringify(job));
  return readManifest(env.core, (job.result as { backup: { label: string } }).backup.label)!;
}

describe("run → job → listed", () => {
  freshInstanceEach();

  test("a backup run by hand answers 202 with a job, which ends with the backup listed and its manifest matching the copy", async () => {
    const { owner } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "Guide");
    await uploaded(env, owner, page.id, "attached bytes", "a.txt", "text/plain");
    const head = env.core.sqlite.query("SELECT sequence, hash FROM audit_log ORDER BY sequence DESC LIMIT 1").get() as {
      sequence: number;
      hash: string;
    };

    const started = await call(env, "POST", "/api/admin/backups/run", { as: owner });
    expect(started.status).toBe(202);
    expect(started.body.job).toMatchObject({ kind: "backup", state: "running" });
    // Single flight: a second run while the first copies is refused.
    const second = await call(env, "POST", "/api/admin/backups/run", { as: owner });
    expect([second.status, second.body.code]).toEqual([409, "backup_running"]);

    const job = await settled(env.core, started.body.job.id);
    expect(job?.state).toBe("succeeded");
    const shown = await call(env, "GET", `/api/admin/backups/jobs/${started.body.job.id}`, { as: owner });
    expect(shown.body).toMatchObject({ state: "succeeded", phase: "done", error: null, finishedAt: expect.any(String) });
    const label = shown.body.result.backup.label as string;
    expect(label).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);

    const listed = await list(owner);
    expect(listed.status).toBe(200);
    expect(listed.body.backups.map((b: { label: string }) => b.label)).toEqual([label]);
    expect(listed.body.lastBackupAt).toBe(listed.body.backups[0].createdAt);
    // The dashboard's health says it too.
    expect((await call(env, "GET", "/api/admin/dashboard", { as: owner })).body.health.lastBackupAt).toBe(listed.body.backups[0].createdAt);
    expect(listed.body.policy).toEqual({ enabled: true, keepCount: 7, keepDays: 30, schedule: "0 3 * * *" });
    expect(listed.body.schedule.nextRunAt).toEqual(expect.any(String));
    expect(listed.body.running).toBeNull();

    const m = readManifest(env.core, label)!;
    const copy = join(env.dir, "backups", label, "cairn.db");
    expect(m).toMatchObject({
      format: 1,
      kind: "manual",
      appVersion: env.core.version,
      bytes: statSync(copy).size,
      sha256: sha256File(copy),
      removedAt: null,
    });
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    expect(m.counts).toEqual({
      pages: liveCount("pages"),
      versions: liveCount("page_versions"),
      attachments: 1,
      comments: 0,
      users: liveCount("users"),
    });
    // The head at the copy: the backup.created entry comes after it.
    expect(m.auditHead).toEqual(head);
    const sha = (env.core.sqlite.query("SELECT sha256 FROM attachments").get() as { sha256: string }).sha256;
    expect(m.files).toEqual([sha]);
    expect(m.schemaVersion).toBe((env.core.sqlite.query("SELECT max(tag) AS t FROM __cairn_migrations").get() as { t: string }).t);
    expect(describeCopy(copy)).toEqual({ schemaVersion: m.schemaVersion, counts: m.counts, auditHead: m.auditHead, files: m.files });
    // A large copy is described in a child process of the executable: the same answer.
    expect(await describeBackupCopy(copy, m.bytes, undefined, 0)).toEqual(describeCopy(copy));
    // The copy is a database that opens and checks.
    const opened = new Database(copy, { readonly: true });
    try {
      expect(opened.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
    } finally {
      opened.close();
    }
    const audited = env.core.sqlite
      .query("SELECT action, target_id AS targetId, actor_id AS actorId FROM audit_log WHERE action LIKE 'backup.%'")
      .all();
    expect(audited).toEqual([{ action: "backup.created", targetId: label, actorId: expect.any(String) }]);
  });

  test("GET /jobs/{id} of an unknown job is 404; a member is 403 everywhere; anonymous 401", async () => {
    const { owner, member } = await ownerAndMember(env);
    expect((await call(env, "GET", "/api/admin/backups/jobs/0190a000-0000-7000-8000-000000000000", { as: owner })).status).toBe(404);
    expect((await list(member)).body).toMatchObject({ code: "permission_required", permission: "backups.manage" });
    expect((await call(env, "POST", "/api/admin/backups/run", { as: member })).status).toBe(403);
    expect((await list({})).status).toBe(401);
  });

  test("two backups in one second get labels -2", async () => {
    await ownerAndMember(env);
    const a = await scheduled();
    const b = await scheduled();
    expect(b.label).toBe(`${a.label}-2`);
  });
});

describe("half-written backups", () => {
  freshInstanceEach();

  test("a .partial- folder is never listed and is removed at start", async () => {
    const { owner } = await ownerAndMember(env);
    const done = await scheduled();
    const partial = join(env.dir, "backups", `.partial-2026-01-01T00-00-00Z`);
    mkdirSync(partial);
    writeFileSync(join(partial, "cairn.db"), "half");
    writeFileSync(join(partial, "manifest.json"), JSON.stringify({ ...done, label: "2026-01-01T00-00-00Z" }));
    expect((await list(owner)).body.backups.map((b: { label: string }) => b.label)).toEqual([done.label]);
    startBackups(env.core);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(join(env.dir, "backups", done.label, "cairn.db"))).toBe(true);
  });
});

/** A policy every check accepts; the refused cases below change one thing of it. */
const ok = { enabled: true, keepCount: 3, keepDays: 10 };

describe("the policy", () => {
  freshInstanceEach();

  const put = (who: { cookie?: string }, body: unknown) => call(env, "PUT", "/api/admin/backups/policy", { as: who, body });

  test("a good policy is stored (schedule left out: unchanged; null: none), audited, and needs a recent password", async () => {
    const { owner } = await ownerAndMember(env);
    expect((await put(owner, ok)).body).toEqual({ ...ok, schedule: "0 3 * * *" });
    expect((await put(owner, { ...ok, schedule: "30  4 * * 1" })).body.schedule).toBe("30 4 * * 1");
    expect((await put(owner, { ...ok, schedule: null })).body.schedule).toBeNull();
    const listed = await list(owner);
    expect(listed.body.policy).toEqual({ ...ok, schedule: null });
    expect(listed.body.schedule.nextRunAt).toBeNull();
    expect(JSON.parse(readFileSync(join(env.dir, "backups", "state", "policy.json"), "utf8"))).toEqual({ ...ok, schedule: null });
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM audit_log WHERE action = 'backup.policy_changed'").get()).toEqual({ n: 3 });
    // The server's schedule follows the policy at once (armed by startBackups).
    startBackups(env.core);
    expect((await list(owner)).body.schedule.nextRunAt).toBeNull();
    await put(owner, { ...ok, schedule: "15 4 * * *" });
    const next = new Date((await list(owner)).body.schedule.nextRunAt);
    expect([next.getHours(), next.getMinutes()]).toEqual([4, 15]);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(DAY);
    env.clock.advance(10 * 60_000);
    expect((await put(owner, ok)).body.code).toBe("reauth_required");
  });
});

describe("the policy refused", () => {
  // A refused policy changes nothing, so the 14 cases share one instance and owner.
  let owner: Awaited<ReturnType<typeof ownerAndMember>>["owner"];
  beforeAll(async () => {
    env = makeEnv();
    ({ owner } = await ownerAndMember(env));
  });
  afterAll(() => env.close());

  test.each([
    ["keepCount", { ...ok, keepCount: 0 }],
    ["keepCount", { ...ok, keepCount: 1001 }],
    ["keepCount", { ...ok, keepCount: 2.5 }],
    ["keepCount", { ...ok, keepCount: null }],
    ["keepDays", { ...ok, keepDays: -1 }],
    ["keepDays", { ...ok, keepDays: 3651 }],
    ["enabled", { ...ok, enabled: "yes" }],
    ["schedule", { ...ok, schedule: "every night" }],
    ["schedule", { ...ok, schedule: "0 25 * * *" }],
    ["schedule", { ...ok, schedule: "0 3 31 2 *" }],
    ["schedule", { ...ok, schedule: "x".repeat(101) }],
    ["schedule", { ...ok, schedule: 3 }],
    ["keepCount", { enabled: true, keepDays: 10 }],
    ["retain", { ...ok, retain: 4 }],
  ])("%s: 400 naming it (%j)", async (field, body) => {
    for (const path of ["/api/admin/backups/policy", "/api/admin/backups/policy/preview"]) {
      const res = await call(env, path.endsWith("preview") ? "POST" : "PUT", path, { as: owner, body });
      expect(res.status).toBe(400);
      expect(JSON.stringify([res.body.field, res.body.errors])).toContain(field);
    }
  });
});

describe("retention", () => {
  freshInstanceEach();

  test("removes exactly what the preview said, and nothing else: outside both limits, never manual", async () => {
    const { owner } = await ownerAndMember(env);
    // Six scheduled backups a day apart, and a manual one among them.
    const taken: BackupManifest[] = [];
    for (let i = 0; i < 6; i++) {
      taken.push(await scheduled());
      if (i === 1) taken.push(readManifest(env.core, (await runBackupNow(env, owner)).result.backup.label)!);
      env.clock.advance(DAY);
    }
    // Now: the newest scheduled is 1 day old, the oldest 6. keepCount 2, keepDays 3: the
    // newest two stay by count, those under 3 days by age; the ones 4, 5 and 6 days old go.
    const policy = { enabled: true, keepCount: 2, keepDays: 3 };
    const preview = await call(env, "POST", "/api/admin/backups/policy/preview", { as: owner, body: policy });
    expect(preview.status).toBe(200);
    const scheduledOnes = taken.filter((m) => m.kind === "scheduled");
    expect(preview.body.remove.map((b: { label: string }) => b.label)).toEqual(
      scheduledOnes
        .slice(0, 3)
        .map((m) => m.label)
        .reverse(),
    );
    expect(preview.body.keep).toBe(4);
    // The preview removed nothing.
    expect(listManifests(env.core).length).toBe(7);
    // With keepCount alone large enough, nothing would go: both limits must be passed.
    expect(
      (await call(env, "POST", "/api/admin/backups/policy/preview", { as: owner, body: { ...policy, keepCount: 6 } })).body.remove,
    ).toEqual([]);
    expect(
      (await call(env, "POST", "/api/admin/backups/policy/preview", { as: owner, body: { ...policy, enabled: false } })).body.remove,
    ).toEqual([]);

    // Days went by: the password is confirmed again (the policy needs a recent one).
    const proof = await call(env, "POST", "/api/auth/reauth", { as: owner, body: { password: PASSWORD } });
    const fresh = { cookie: cookieFrom(proof) };
    expect((await call(env, "PUT", "/api/admin/backups/policy", { as: fresh, body: policy })).status).toBe(200);
    const run = await runBackupNow(env, fresh);
    expect(run.result.removed.sort()).toEqual(preview.body.remove.map((b: { label: string }) => b.label).sort());
    const left = listManifests(env.core).map((m) => m.label);
    expect(left.sort()).toEqual(
      [...taken.filter((m) => !run.result.removed.includes(m.label)).map((m) => m.label), run.result.backup.label].sort(),
    );
    for (const label of run.result.removed) {
      expect(existsSync(join(env.dir, "backups", label, "cairn.db"))).toBe(false);
      expect(readManifest(env.core, label)).toMatchObject({ removedReason: "retention", removedAt: expect.any(String) });
    }
    const withRemoved = await list(fresh, "?includeRemoved=true");
    expect(withRemoved.body.backups.length).toBe(8);
  });
});

describe("removing by hand", () => {
  freshInstanceEach();

  test("DELETE /{label} removes any kind (its copy; the manifest stays, listed with includeRemoved); a second time is 404", async () => {
    const { owner } = await ownerAndMember(env);
    const label = (await runBackupNow(env, owner)).result.backup.label;
    const res = await call(env, "DELETE", `/api/admin/backups/${label}`, { as: owner });
    expect(res.status).toBe(204);
    expect((await list(owner)).body.backups).toEqual([]);
    expect((await list(owner, "?includeRemoved=true")).body.backups[0]).toMatchObject({ label, removedReason: "by_hand" });
    expect((await call(env, "DELETE", `/api/admin/backups/${label}`, { as: owner })).body.code).toBe("backup_not_found");
    expect((await call(env, "DELETE", `/api/admin/backups/2020-01-01T00-00-00Z`, { as: owner })).status).toBe(404);
    expect((await call(env, "DELETE", `/api/admin/backups/..%2Fcairn.db`, { as: owner })).status).toBe(400);
  });
});

describe("files a backup needs", () => {
  freshInstanceEach();

  test(
    "a blob named by a retained backup survives the attachment's deletion and the " +
      "start-up sweep, and goes once that backup is removed",
    async () => {
      const { owner } = await ownerAndMember(env);
      const space = await newSpace(env, owner, "DOCS");
      const page = await newPage(env, owner, space.id, "Guide");
      const att = await uploaded(env, owner, page.id, "kept by the backup", "k.txt", "text/plain");
      const sha = (env.core.sqlite.query("SELECT sha256 FROM attachments").get() as { sha256: string }).sha256;
      const label = (await runBackupNow(env, owner)).result.backup.label;
      const store = blobStore(env.core);

      expect((await call(env, "DELETE", `/api/attachments/${att.id}`, { as: owner })).status).toBe(204);
      await Bun.sleep(20);
      expect(await store.has(sha)).toBe(true);
      await sweepOrphanBlobs(env.core);
      expect(await store.has(sha)).toBe(true);

      expect((await call(env, "DELETE", `/api/admin/backups/${label}`, { as: owner })).status).toBe(204);
      await Bun.sleep(20);
      expect(await store.has(sha)).toBe(false);
    },
  );
});
