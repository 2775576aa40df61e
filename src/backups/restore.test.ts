/**
 * Restore through the real app on a real data directory: the data of the backup exactly, the
 * audit chain, writes refused meanwhile, undo, the confirmations.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { call, makeEnv, mintToken, PASSWORD, type TestEnv, type Who } from "../../tests/harness";
import { uploaded } from "../attachments/testing";
import { comment } from "../comments/testing";
import { newPage, ownerMemberAndPage } from "../pages/testing";
import { settled } from "./jobs";
import { readRestoreFile, writeRestoreFile } from "./restore-state";
import { runBackupNow } from "./testing";

/** Every table's rows in rowid order (WITHOUT ROWID ones by their key), the restore's marker table left out. */
export function dumpTables(db: Database, skip: string[] = []): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of db.query<{ name: string; type: string; wr: number }, []>("PRAGMA main.table_list").all()) {
    if (
      (t.type !== "table" && t.type !== "shadow") ||
      t.name.startsWith("sqlite_schema") ||
      t.name === "__cairn_restores" ||
      skip.includes(t.name)
    )
      continue;
    out[t.name] = db.query(`SELECT ${t.wr ? "*" : "rowid AS _rowid, *"} FROM "${t.name}" ORDER BY ${t.wr ? "1, 2" : "rowid"}`).all();
  }
  return out;
}

export function dumpFile(path: string, skip: string[] = []): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    return dumpTables(db, skip);
  } finally {
    db.close();
  }
}

/**
 * The audit log and the outbox grow by the restore's own entries: compared up to the backup's.
 * The search index is rebuilt from the pages (FTS5's shadow tables cannot be copied under Bun's
 * defensive SQLite): searching is checked instead.
 */
const SEARCH = [
  "search_dirty",
  "search_backfill",
  ...["words", "titles", "title_words", "recent"].flatMap((t) => ["data", "idx", "docsize", "config"].map((s) => `search_${t}_${s}`)),
];
const GROWING = ["audit_log", "events", "sqlite_sequence", ...SEARCH];

export async function restoreAndWait(env: TestEnv, who: Who, label: string, body: Record<string, unknown> = {}) {
  const res = await call(env, "POST", `/api/admin/backups/${label}/restore`, {
    as: who,
    body: { confirmLabel: label, password: PASSWORD, ...body },
  });
  if (res.status !== 202) throw new Error(`restore: ${res.status} ${res.text}`);
  return (await settled(env.core, res.body.job.id))!;
}

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

async function fixture() {
  const f = await ownerMemberAndPage(env);
  await comment(env, f.owner, f.page.id, { body: "First thoughts" });
  const file = await uploaded(env, f.owner, f.page.id, "bytes of the attachment", "notes.txt", "text/plain");
  return { ...f, file };
}

describe("restore", () => {
  test(
    "returns exactly the data of the backup: pages, versions, comments, attachments' " +
      "bytes; the audit chain verifies and names the replaced head",
    async () => {
      const { owner, space, page, file } = await fixture();
      const backup = (await runBackupNow(env, owner)).result.backup.label;
      const backupPath = `${env.dir}/backups/${backup}/cairn.db`;
      const expected = dumpFile(backupPath, GROWING);
      const expectedAudit = dumpFile(backupPath).audit_log;

      // Changes after the backup: all of them must go.
      await newPage(env, owner, space.id, "Written after the backup");
      await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Renamed", baseVersion: 1 } });
      await comment(env, owner, page.id, { body: "Second thoughts" });
      await uploaded(env, owner, page.id, "a later attachment", "later.txt", "text/plain");
      const headBefore = env.core.sqlite
        .query<{ sequence: number; hash: string }, []>("SELECT sequence, hash FROM audit_log ORDER BY sequence DESC LIMIT 1")
        .get()!;

      const preview = await call(env, "GET", `/api/admin/backups/${backup}/restore-preview`, { as: owner });
      expect(preview.status).toBe(200);
      expect(preview.body.lost).toMatchObject({ pages: 1, comments: 1, files: 1, people: 0 });
      expect(preview.body.lost.versions).toBeGreaterThanOrEqual(2);
      expect(preview.body.disk.neededBytes).toBeGreaterThan(preview.body.disk.restoredBytes);

      const job = await restoreAndWait(env, owner, backup);
      expect({ state: job.state, error: job.error }).toEqual({ state: "succeeded", error: null });
      const result = job.result as { safetyLabel: string; replacedHead: { sequence: number; hash: string } };
      expect(result.replacedHead.sequence).toBeGreaterThanOrEqual(headBefore.sequence);

      env.core.commits.flush();
      expect(dumpTables(env.core.sqlite, GROWING)).toEqual(expected);
      // The restored chain is the backup's, continued by the restore's own entry.
      const audit = dumpTables(env.core.sqlite).audit_log as Array<{ sequence: number; action: string; details: string }>;
      expect(audit.slice(0, expectedAudit.length) as unknown[]).toEqual(expectedAudit);
      const last = audit.at(-1)!;
      expect(last.action).toBe("backup.restored");
      expect(JSON.parse(last.details)).toMatchObject({ label: backup, safetyLabel: result.safetyLabel });
      expect(JSON.parse(last.details).replacedHead).toEqual({ sequence: result.replacedHead.sequence, digest: result.replacedHead.hash });
      const verify = await call(env, "POST", "/api/admin/audit/verify", { as: owner });
      expect(verify.body.ok).toBe(true);

      // Read through the app: the old title, the attachment's bytes.
      const read = await call(env, "GET", `/api/pages/${page.id}`, { as: owner });
      expect(read.body.title).toBe(page.title);
      const found = await call(env, "GET", `/api/search?q=${encodeURIComponent(page.title)}`, { as: owner });
      expect(found.body.map((h: { pageId: string }) => h.pageId)).toEqual([page.id]);
      expect((await call(env, "GET", "/api/search?q=Written", { as: owner })).body).toEqual([]);
      const bytes = await call(env, "GET", `/api/attachments/${file.id}/download`, { as: owner });
      expect(bytes.text).toBe("bytes of the attachment");

      // Maintenance is off; writes go through again; the state file says done with a kept copy.
      expect(env.core.maintenance.active()).toBe(false);
      expect((await newPage(env, owner, space.id, "After the restore")).id).toBeTruthy();
      const state = readRestoreFile(env.core);
      expect(state.current?.phase).toBe("done");
      expect(state.kept?.safetyLabel).toBe(result.safetyLabel);
    },
  );

  test("while it runs, writes answer 503 maintenance with Retry-After and reads answer", async () => {
    const { owner, space, page } = await fixture();
    const backup = (await runBackupNow(env, owner)).result.backup.label;
    const started = await call(env, "POST", `/api/admin/backups/${backup}/restore`, {
      as: owner,
      body: { confirmLabel: backup, password: PASSWORD },
    });
    expect(started.status).toBe(202);
    // The job turned maintenance on as it started.
    await Promise.resolve();
    expect(env.core.maintenance.active()).toBe(true);
    const write = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "During" } });
    expect(write.status).toBe(503);
    expect(write.body.code).toBe("maintenance");
    expect(Number(write.headers.get("retry-after"))).toBeGreaterThan(0);
    const read = await call(env, "GET", `/api/pages/${page.id}`, { as: owner });
    expect(read.status).toBe(200);
    // A second restore (or an undo, or discarding the kept copy) meanwhile: 409 restore_running
    // at once, not the 503 every other write gets, and before the password is looked at.
    for (const [path, word, password] of [
      [`/api/admin/backups/${backup}/restore`, backup, PASSWORD],
      [`/api/admin/backups/${backup}/restore`, backup, "not the password"],
      ["/api/admin/backups/restore/undo", "UNDO", PASSWORD],
      ["/api/admin/backups/restore/discard-kept", "REMOVE", PASSWORD],
    ]) {
      const second = await call(env, "POST", path, { as: owner, body: { confirmLabel: word, password } });
      expect([path, second.status, second.body.code, second.body.jobId]).toEqual([path, 409, "restore_running", started.body.job.id]);
    }
    const job = await settled(env.core, started.body.job.id);
    expect({ state: job?.state, error: job?.error }).toEqual({ state: "succeeded", error: null });
    expect((await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "After" } })).status).toBe(201);
  });

  test("two restores asked at the same moment: one starts, the other is 409 restore_running", async () => {
    const { owner } = await fixture();
    const backup = (await runBackupNow(env, owner)).result.backup.label;
    const ask = () =>
      call(env, "POST", `/api/admin/backups/${backup}/restore`, { as: owner, body: { confirmLabel: backup, password: PASSWORD } });
    const answers = await Promise.all([ask(), ask()]);
    expect(answers.map((a) => [a.status, a.body.code ?? null]).sort()).toEqual([
      [202, null],
      [409, "restore_running"],
    ]);
    const started = answers.find((a) => a.status === 202)!;
    expect((await settled(env.core, started.body.job.id))?.state).toBe("succeeded");
  });

  test("undo puts the replaced data back exactly; discard-kept removes the safety copy", async () => {
    const { owner, space } = await fixture();
    const backup = (await runBackupNow(env, owner)).result.backup.label;
    await newPage(env, owner, space.id, "Only in the replaced data");
    await comment(env, owner, (await newPage(env, owner, space.id, "Another")).id, { body: "kept by the safety copy" });
    env.core.commits.flush();
    const SKIP = [...GROWING, "sessions", "sign_in_failures"];
    const before = dumpTables(env.core.sqlite, SKIP);

    expect((await restoreAndWait(env, owner, backup)).state).toBe("succeeded");
    expect(dumpTables(env.core.sqlite, SKIP)).not.toEqual(before);

    const wrong = await call(env, "POST", "/api/admin/backups/restore/undo", {
      as: owner,
      body: { confirmLabel: "undo", password: PASSWORD },
    });
    expect([wrong.status, wrong.body.code, wrong.body.field]).toEqual([400, "confirm_mismatch", "confirmLabel"]);
    const undo = await call(env, "POST", "/api/admin/backups/restore/undo", {
      as: owner,
      body: { confirmLabel: "UNDO", password: PASSWORD },
    });
    expect(undo.status).toBe(202);
    const job = await settled(env.core, undo.body.job.id);
    expect(job?.state).toBe("succeeded");
    env.core.commits.flush();
    expect(dumpTables(env.core.sqlite, SKIP)).toEqual(before);
    expect((await call(env, "POST", "/api/admin/audit/verify", { as: owner })).body.ok).toBe(true);
    expect(readRestoreFile(env.core).kept).toBeNull();
    // Nothing kept any more: undo and discard are 409.
    const again = await call(env, "POST", "/api/admin/backups/restore/discard-kept", {
      as: owner,
      body: { confirmLabel: "REMOVE", password: PASSWORD },
    });
    expect([again.status, again.body.code]).toEqual([409, "nothing_kept"]);

    // A second restore keeps a copy; discard-kept removes it.
    const second = await restoreAndWait(env, owner, backup);
    const safety = (second.result as { safetyLabel: string }).safetyLabel;
    const discard = await call(env, "POST", "/api/admin/backups/restore/discard-kept", {
      as: owner,
      body: { confirmLabel: "REMOVE", password: PASSWORD },
    });
    expect([discard.status, discard.body.label]).toEqual([200, safety]);
    const list = await call(env, "GET", "/api/admin/backups?includeRemoved=true", { as: owner });
    expect(list.body.backups.find((b: { label: string }) => b.label === safety).removedReason).toBe("discarded");
  });
});

describe("cancel", () => {
  test("stops a restore before its swap (open while writes are refused); once swapping, 409 restore_swapped", async () => {
    const { owner, space } = await fixture();
    const backup = (await runBackupNow(env, owner)).result.backup.label;
    await newPage(env, owner, space.id, "Stays: the restore is cancelled");
    env.core.commits.flush();
    const before = dumpTables(env.core.sqlite, [...GROWING, "sessions"]);
    const started = await call(env, "POST", `/api/admin/backups/${backup}/restore`, {
      as: owner,
      body: { confirmLabel: backup, password: PASSWORD },
    });
    await Promise.resolve();
    const cancel = await call(env, "POST", "/api/admin/backups/restore/cancel", { as: owner });
    expect([cancel.status, cancel.body.job.id]).toEqual([200, started.body.job.id]);
    const job = await settled(env.core, started.body.job.id);
    expect(job?.state).toBe("cancelled");
    expect(readRestoreFile(env.core).current?.phase).toBe("cancelled");
    expect(env.core.maintenance.active()).toBe(false);
    env.core.commits.flush();
    expect(dumpTables(env.core.sqlite, [...GROWING, "sessions"])).toEqual(before);

    const file = readRestoreFile(env.core);
    writeRestoreFile(env.core, { ...file, current: { ...file.current!, phase: "swapping", finishedAt: null } });
    const late = await call(env, "POST", "/api/admin/backups/restore/cancel", { as: owner });
    expect([late.status, late.body.code]).toEqual([409, "restore_swapped"]);
  });
});

describe("confirmations and bad input", () => {
  test("table-driven refusals name the field; nothing starts", async () => {
    const { owner, member } = await fixture();
    const backup = (await runBackupNow(env, owner)).result.backup.label;
    const token = await mintToken(env, owner);
    const path = `/api/admin/backups/${backup}/restore`;
    const cases: Array<[string, Who, string, Record<string, unknown>, number, string, string | null]> = [
      ["wrong label", owner, path, { confirmLabel: "2020-01-01T00-00-00Z", password: PASSWORD }, 400, "confirm_mismatch", "confirmLabel"],
      [
        "label in other case",
        owner,
        path,
        { confirmLabel: backup.toLowerCase(), password: PASSWORD },
        400,
        "confirm_mismatch",
        "confirmLabel",
      ],
      ["wrong password", owner, path, { confirmLabel: backup, password: "not the password" }, 400, "validation_failed", "password"],
      ["empty password", owner, path, { confirmLabel: backup, password: "" }, 400, "validation_failed", "password"],
      ["missing password", owner, path, { confirmLabel: backup }, 400, "validation_failed", "password"],
      ["a two-factor code", owner, path, { confirmLabel: backup, password: PASSWORD, code: "123456" }, 409, "two_factor_off", "code"],
      ["bad at", owner, path, { confirmLabel: backup, password: PASSWORD, at: "yesterday" }, 400, "validation_failed", "at"],
      [
        "at without a zone",
        owner,
        path,
        { confirmLabel: backup, password: PASSWORD, at: "2026-01-01T00:00:00" },
        400,
        "validation_failed",
        "at",
      ],
      ["unknown field", owner, path, { confirmLabel: backup, password: PASSWORD, force: true }, 400, "validation_failed", "force"],
      [
        "no such backup",
        owner,
        "/api/admin/backups/2020-01-01T00-00-00Z/restore",
        { confirmLabel: "2020-01-01T00-00-00Z", password: PASSWORD },
        404,
        "backup_not_found",
        null,
      ],
      ["a member", member, path, { confirmLabel: backup, password: PASSWORD }, 403, "permission_required", null],
      ["an API token", { token }, path, { confirmLabel: backup, password: PASSWORD }, 403, "token_not_allowed", null],
      [
        "undo: wrong word",
        owner,
        "/api/admin/backups/restore/undo",
        { confirmLabel: "REMOVE", password: PASSWORD },
        400,
        "confirm_mismatch",
        "confirmLabel",
      ],
      [
        "undo: nothing kept",
        owner,
        "/api/admin/backups/restore/undo",
        { confirmLabel: "UNDO", password: PASSWORD },
        409,
        "nothing_kept",
        null,
      ],
      [
        "discard: wrong word",
        owner,
        "/api/admin/backups/restore/discard-kept",
        { confirmLabel: "UNDO", password: PASSWORD },
        400,
        "confirm_mismatch",
        "confirmLabel",
      ],
      ["cancel: nothing running", owner, "/api/admin/backups/restore/cancel", {}, 409, "conflict", null],
    ];
    for (const [name, who, url, body, status, code, field] of cases) {
      const res = await call(env, "POST", url, { as: who, body });
      expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status, code });
      if (field) expect({ name, field: res.body.field ?? Object.keys(res.body.errors ?? {})[0] }).toEqual({ name, field });
    }
    expect(readRestoreFile(env.core).current).toBeNull();
    expect(env.core.maintenance.active()).toBe(false);
    const preview = await call(env, "GET", `/api/admin/backups/${backup}/restore-preview?at=never`, { as: owner });
    expect([preview.status, preview.body.field]).toEqual([400, "at"]);
    expect((await call(env, "GET", `/api/admin/backups/${backup}/restore-preview`, { as: member })).status).toBe(403);
  });
});
