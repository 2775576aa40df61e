/**
 * /api/admin/backups/targets through the real app: slots set and checked field by field,
 * credentials sealed at rest and never answered, probes that report what to fix (a real S3
 * server on loopback, real folders), copies as jobs that skip what the target already holds.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { createSession } from "../auth/sessions";
import { call, makeEnv, signUp, type Answer, type TestEnv, type Who } from "../../tests/harness";
import { sealSecret } from "../platform/secret-box";
import { ALLOW_LOOPBACK } from "../webhooks/testing";
import { cancelJob, getJob, settled } from "./jobs";
import type { BackupManifest } from "./manifest";
import { targetsPath } from "./targets-store";
import { randomData, S3_KEY, startS3, tempFolder, writeTestBackup, type TestS3 } from "./targets-testing";

const SECRET = "sEcReT-never-shown-9f3b2c";
const PATH = "/api/admin/backups/targets";

let env: TestEnv;
let owner: Who;
let s3: TestS3;
const folders: string[] = [];
const answers: Answer[] = [];
let backups: BackupManifest[];

/** Every answer is kept, to check no credential is ever in one. */
async function api(method: string, path: string, body?: unknown, as: Who = owner) {
  const res = await call(env, method, path, { as, body });
  answers.push(res);
  return res;
}

const s3Body = (over: Record<string, unknown> = {}) => ({
  endpoint: s3.endpoint,
  region: "us-east-1",
  bucket: "cairn",
  prefix: "wiki/copies",
  accessKeyId: S3_KEY.accessKeyId,
  secretAccessKey: SECRET,
  ...over,
});

beforeAll(async () => {
  env = makeEnv({ env: ALLOW_LOOPBACK });
  owner = await signUp(env, "owner@example.com");
  s3 = await startS3(["cairn"]);
  backups = [
    await writeTestBackup(env.core, "2026-11-20T03-00-00Z", { dbBytes: randomData(300_000), files: [randomData(1000), randomData(2000)] }),
    await writeTestBackup(env.core, "2026-11-21T03-00-00Z", { dbBytes: randomData(100_000), files: [randomData(3000)] }),
  ];
});

afterAll(async () => {
  env.close();
  await s3.close();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

const folder = () => {
  const f = tempFolder();
  folders.push(f);
  return f;
};

describe("configuring the slots", () => {
  test("nothing is set at first", async () => {
    const res = await api("GET", PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ directory: null, s3: null, copying: {} });
  });

  test("the S3 slot is answered without its secret, and targets.json holds neither credential in clear", async () => {
    const res = await api("PUT", `${PATH}/s3`, s3Body());
    expect(res.status).toBe(200);
    expect(res.body.s3).toMatchObject({
      slot: "s3",
      endpoint: s3.endpoint,
      region: "us-east-1",
      bucket: "cairn",
      prefix: "wiki/copies",
      pathStyle: true,
      accessKeyId: "S3RVER",
      secretAccessKeySet: true,
      lastTest: null,
      lastCopy: null,
    });
    expect(res.body.s3.secretAccessKey).toBeUndefined();
    const raw = readFileSync(targetsPath(env.core), "utf8");
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain("S3RVER");
    expect(JSON.parse(raw).s3.secretAccessKeySealed).toStartWith("v1.");
    expect((await api("GET", PATH)).body.s3.accessKeyId).toBe("S3RVER");
  });

  test("the secret may be left out to keep it, but not when the endpoint or the key changes", async () => {
    const { secretAccessKey: _s, ...noSecret } = s3Body({ prefix: "/wiki/copies/" });
    expect((await api("PUT", `${PATH}/s3`, noSecret)).status).toBe(200);
    const moved = await api("PUT", `${PATH}/s3`, { ...noSecret, endpoint: "https://s3.example.com" });
    expect(moved.status).toBe(400);
    expect(moved.body.field).toBe("secretAccessKey");
    const otherKey = await api("PUT", `${PATH}/s3`, { ...noSecret, accessKeyId: "OTHER" });
    expect(otherKey.body.field).toBe("secretAccessKey");
  });

  test("a change is audited by the names of the fields, never a credential's value", async () => {
    const rows = env.core.sqlite.query("SELECT data FROM events WHERE type = 'backup.target_changed' ORDER BY rowid").all() as Array<{
      data: string;
    }>;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    // Where copies go is named (the owner is told of it); never a credential.
    const where = `${s3.endpoint}/cairn/wiki/copies`;
    expect(JSON.parse(rows[0]!.data)).toEqual({
      slot: "s3",
      action: "added",
      fields: ["endpoint", "region", "bucket", "prefix", "pathStyle", "accessKeyId", "secretAccessKey"],
      where,
    });
    expect(JSON.parse(rows[1]!.data)).toEqual({ slot: "s3", action: "changed", fields: [], where });
    for (const r of rows) expect(r.data).not.toContain(SECRET);
  });

  test("credentials sealed under another instance key are shown as unset and must be entered again", async () => {
    expect((await api("PUT", `${PATH}/s3`, s3Body())).status).toBe(200);
    const file = JSON.parse(readFileSync(targetsPath(env.core), "utf8"));
    const foreign = crypto.getRandomValues(new Uint8Array(32));
    file.s3.accessKeyIdSealed = sealSecret(foreign, "backup-target", "S3RVER");
    file.s3.secretAccessKeySealed = sealSecret(foreign, "backup-target", SECRET);
    writeFileSync(targetsPath(env.core), JSON.stringify(file));
    const shown = await api("GET", PATH);
    expect(shown.status).toBe(200);
    expect(shown.body.s3).toMatchObject({ accessKeyId: null, secretAccessKeySet: false, bucket: "cairn" });
    const probe = await api("POST", `${PATH}/s3/test`);
    expect(probe.body).toMatchObject({ ok: false, steps: [{ step: "connect", ok: false }] });
    expect(probe.body.error).toContain("Enter the access key ID and the secret again");
    const { secretAccessKey: _s, ...noSecret } = s3Body();
    expect((await api("PUT", `${PATH}/s3`, noSecret)).body.field).toBe("secretAccessKey");
    expect((await api("PUT", `${PATH}/s3`, s3Body())).body.s3).toMatchObject({ accessKeyId: "S3RVER", secretAccessKeySet: true });
  });

  const bad: Array<[string, "directory" | "s3", Record<string, unknown>, string]> = [
    ["a relative path", "directory", { path: "backups/here" }, "path"],
    ["a path with ..", "directory", { path: "/mnt/../etc" }, "path"],
    ["no path", "directory", {}, "path"],
    ["an S3 field on the folder slot", "directory", { path: "/mnt/usb", bucket: "x" }, "bucket"],
    ["a path inside the data directory", "directory", { path: "(data)/backups" }, "path"],
    ["an endpoint that is not a URL", "s3", { endpoint: "s3.example.com" }, "endpoint"],
    ["an ftp endpoint", "s3", { endpoint: "ftp://s3.example.com" }, "endpoint"],
    ["an endpoint with a path", "s3", { endpoint: "https://s3.example.com/bucket" }, "endpoint"],
    ["an endpoint with a password", "s3", { endpoint: "https://me:pw@s3.example.com" }, "endpoint"],
    ["no region", "s3", { region: "" }, "region"],
    ["a region with spaces", "s3", { region: "us east" }, "region"],
    ["a bucket in capitals", "s3", { bucket: "MyBucket" }, "bucket"],
    ["a bucket too short", "s3", { bucket: "ab" }, "bucket"],
    ["a prefix with ..", "s3", { prefix: "a/../b" }, "prefix"],
    ["a prefix with spaces", "s3", { prefix: "my copies" }, "prefix"],
    ["pathStyle as text", "s3", { pathStyle: "yes" }, "pathStyle"],
    ["no access key", "s3", { accessKeyId: "" }, "accessKeyId"],
    ["a key with a space", "s3", { accessKeyId: "AK IA" }, "accessKeyId"],
    ["a secret with a space", "s3", { secretAccessKey: "se cret" }, "secretAccessKey"],
    ["a folder field on the S3 slot", "s3", { path: "/mnt" }, "path"],
    ["an unknown field", "s3", { colour: "red" }, "colour"],
  ];
  test.each(bad)("400 naming the field: %s", async (_what, slot, over, field) => {
    const before = readFileSync(targetsPath(env.core), "utf8");
    const body =
      slot === "s3" ? s3Body(over) : { ...over, ...(over.path === "(data)/backups" ? { path: join(env.core.data.root, "backups") } : {}) };
    const res = await api("PUT", `${PATH}/${slot}`, body);
    expect(res.status).toBe(400);
    expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toBe(field);
    expect(readFileSync(targetsPath(env.core), "utf8")).toBe(before);
  });

  test("another slot name is refused; setting needs a recent password, removing does not", async () => {
    expect((await api("PUT", `${PATH}/ftp`, { path: "/x" })).status).toBe(400);
    const ownerId = (env.core.sqlite.query("SELECT id FROM users LIMIT 1").get() as { id: string }).id;
    const stale = { cookie: createSession(env.core, ownerId, { ip: "127.0.0.1", userAgent: null, reauthAt: null }).value };
    const refused = await api("PUT", `${PATH}/directory`, { path: folder() }, stale);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("reauth_required");
    expect((await api("DELETE", `${PATH}/directory`, undefined, stale)).status).toBe(204);
  });
});

describe("testing a slot", () => {
  test("the S3 slot: connect, write, list, read back and delete a probe; nothing is left in the bucket", async () => {
    expect((await api("PUT", `${PATH}/s3`, s3Body())).status).toBe(200);
    const res = await api("POST", `${PATH}/s3/test`);
    expect(res.status).toBe(200);
    expect(res.body.error).toBeNull();
    expect(res.body.ok).toBe(true);
    expect(res.body.steps.map((s: { step: string; ok: boolean }) => `${s.step} ${s.ok}`)).toEqual([
      "connect true",
      "write true",
      "list true",
      "read back true",
      "delete true",
    ]);
    const client = new S3Client({ endpoint: s3.endpoint, bucket: "cairn", region: "us-east-1", ...S3_KEY });
    expect((await client.list({ prefix: "wiki/" })).contents ?? []).toEqual([]);
    expect((await api("GET", PATH)).body.s3.lastTest).toMatchObject({ ok: true, error: null });
  });

  const failing: Array<[string, () => Record<string, unknown>, RegExp, string]> = [
    ["an access key the server does not know", () => ({ accessKeyId: "NOBODY" }), /does not know this access key ID/, "write"],
    ["a bucket that does not exist", () => ({ bucket: "missing-bucket" }), /The bucket "missing-bucket" does not exist/, "write"],
    [
      "a port where nothing listens",
      () => ({ endpoint: `http://127.0.0.1:${s3.port === 1 ? 2 : 1}` }),
      /Nothing answers at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/,
      "write",
    ],
  ];
  test.each(failing)("a clear report, not an error: %s", async (_what, over, words, step) => {
    expect((await api("PUT", `${PATH}/s3`, s3Body(over()))).status).toBe(200);
    const res = await api("POST", `${PATH}/s3/test`);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.error).toMatch(words);
    expect(res.body.steps.at(-1)).toMatchObject({ step, ok: false });
    expect((await api("GET", PATH)).body.s3.lastTest).toMatchObject({ ok: false });
  });

  test("without CAIRN_OUTBOUND_ALLOW the guard refuses a loopback endpoint, and says how to allow it", async () => {
    const guarded = makeEnv();
    try {
      const admin = await signUp(guarded, "owner@example.com");
      expect((await call(guarded, "PUT", `${PATH}/s3`, { as: admin, body: s3Body() })).status).toBe(200);
      const res = await call(guarded, "POST", `${PATH}/s3/test`, { as: admin });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: false, steps: [{ step: "connect", ok: false }] });
      expect(res.body.error).toMatch(/loopback.*CAIRN_OUTBOUND_ALLOW/);
    } finally {
      guarded.close();
    }
  });

  test("the folder slot: a real folder passes; a missing one says to mount or create it", async () => {
    const dir = folder();
    expect((await api("PUT", `${PATH}/directory`, { path: dir })).status).toBe(200);
    const ok = await api("POST", `${PATH}/directory/test`);
    expect(ok.body).toMatchObject({ ok: true, error: null });
    expect(ok.body.steps.map((s: { step: string }) => s.step)).toEqual(["write", "list", "read back", "delete"]);
    expect((await api("PUT", `${PATH}/directory`, { path: join(dir, "not-mounted") })).status).toBe(200);
    const missing = await api("POST", `${PATH}/directory/test`);
    expect(missing.status).toBe(200);
    expect(missing.body.ok).toBe(false);
    expect(missing.body.error).toContain(`The folder ${join(dir, "not-mounted")} does not exist`);
  });
});

describe("copying to a slot", () => {
  const copy = async (slot: string) => {
    const res = await api("POST", `${PATH}/${slot}/copy`);
    expect(res.status).toBe(202);
    expect(res.body.job).toMatchObject({ kind: "copy", state: "running" });
    const done = await settled(env.core, res.body.job.id);
    const job = (await api("GET", `/api/admin/backups/jobs/${res.body.job.id}`)).body;
    expect(job.state).toBe(done!.state);
    return done!;
  };

  test("to S3: every backup and its files, then nothing new the second time; audited", async () => {
    expect((await api("PUT", `${PATH}/s3`, s3Body())).status).toBe(200);
    const first = await copy("s3");
    expect(first.state).toBe("succeeded");
    expect(first.result).toMatchObject({ slot: "s3", backups: 2, copied: 2 + 2 + 3, skipped: 0, missingFiles: [] });
    expect(first.progress).toMatchObject({ done: (first.result as { bytes: number }).bytes });
    const client = new S3Client({ endpoint: s3.endpoint, bucket: "cairn", region: "us-east-1", ...S3_KEY });
    for (const m of backups) {
      const bytes = new Uint8Array(await client.file(`wiki/copies/backups/${m.label}/cairn.db`).arrayBuffer());
      expect(new Bun.CryptoHasher("sha256").update(bytes).digest("hex")).toBe(m.sha256);
    }
    const second = await copy("s3");
    expect(second.result).toMatchObject({ copied: 0, skipped: 7, bytes: 0 });
    const events = env.core.sqlite.query("SELECT data FROM events WHERE type = 'backup.copied'").all() as Array<{ data: string }>;
    expect(events.map((e) => JSON.parse(e.data))).toEqual([
      { slot: "s3", backups: 2, copied: 7, skipped: 0, bytes: (first.result as { bytes: number }).bytes, missingFiles: 0 },
      { slot: "s3", backups: 2, copied: 0, skipped: 7, bytes: 0, missingFiles: 0 },
    ]);
    expect((await api("GET", PATH)).body.s3.lastCopy).toMatchObject({ ok: true, summary: { copied: 0, skipped: 7 } });
  });

  test("to a folder, and a failing target ends the job with words on what to fix", async () => {
    const dir = folder();
    expect((await api("PUT", `${PATH}/directory`, { path: dir })).status).toBe(200);
    expect((await copy("directory")).result).toMatchObject({ copied: 7 });
    expect((await copy("directory")).result).toMatchObject({ copied: 0, skipped: 7 });
    expect((await api("PUT", `${PATH}/directory`, { path: join(dir, "gone") })).status).toBe(200);
    const failed = await copy("directory");
    expect(failed.state).toBe("failed");
    expect(failed.error!.message).toContain("does not exist");
    expect((await api("GET", PATH)).body.directory.lastCopy).toMatchObject({ ok: false });
  });

  test("a slot not set: 404 to test and to copy; removing it is 204 (and again)", async () => {
    expect((await api("DELETE", `${PATH}/directory`)).status).toBe(204);
    expect((await api("DELETE", `${PATH}/directory`)).status).toBe(204);
    expect((await api("POST", `${PATH}/directory/test`)).status).toBe(404);
    expect((await api("POST", `${PATH}/directory/copy`)).status).toBe(404);
    expect((await api("GET", PATH)).body.directory).toBeNull();
    const removed = env.core.sqlite
      .query("SELECT data FROM events WHERE type = 'backup.target_changed' ORDER BY rowid DESC LIMIT 1")
      .get() as { data: string };
    expect(JSON.parse(removed.data)).toMatchObject({ slot: "directory", action: "removed", fields: [] });
  });
});

describe("a copy cancelled half-way", () => {
  test("ends cancelled with nothing half-written on the target, and the next copy continues where it stopped", async () => {
    const other = makeEnv();
    try {
      const admin = await signUp(other, "owner@example.com");
      const big = await writeTestBackup(other.core, "2026-11-23T03-00-00Z", {
        dbBytes: randomData(32 * 1024 * 1024),
        files: [randomData(4000), randomData(5000)],
      });
      const dir = folder();
      expect((await call(other, "PUT", `${PATH}/directory`, { as: admin, body: { path: dir } })).status).toBe(200);
      const started = await call(other, "POST", `${PATH}/directory/copy`, { as: admin });
      expect(started.status).toBe(202);
      const id = started.body.job.id as string;
      // Once the database is being written (the two files, first, have landed), stop the job.
      for (let i = 0; i < 5000; i++) {
        const progress = getJob(other.core, id)?.progress;
        if (progress && progress.done > 1024 * 1024) break;
        await Bun.sleep(1);
      }
      const midway = getJob(other.core, id)!;
      expect(midway.state).toBe("running");
      expect(midway.progress!.done).toBeLessThan(midway.progress!.total);
      expect((await call(other, "POST", `${PATH}/directory/copy`, { as: admin })).body.code).toBe("copy_running");
      expect((await call(other, "PUT", `${PATH}/directory`, { as: admin, body: { path: folder() } })).body.code).toBe("copy_running");
      expect((await call(other, "DELETE", `${PATH}/directory`, { as: admin })).body.code).toBe("copy_running");
      expect(cancelJob(other.core, id)).toBe(true);
      const cancelled = await settled(other.core, id);
      expect(cancelled!.state).toBe("cancelled");
      expect((await call(other, "GET", PATH, { as: admin })).body.directory.lastCopy).toMatchObject({
        ok: false,
        error: expect.stringContaining("continues where it stopped"),
      });
      const folderOf = join(dir, "backups", big.label);
      expect(existsSync(join(folderOf, "cairn.db"))).toBe(false);
      expect(existsSync(join(folderOf, "manifest.json"))).toBe(false);

      const again = await call(other, "POST", `${PATH}/directory/copy`, { as: admin });
      const done = await settled(other.core, again.body.job.id);
      expect(done!.state).toBe("succeeded");
      expect(done!.result).toMatchObject({ copied: 2, skipped: 2 });
      expect(new Bun.CryptoHasher("sha256").update(readFileSync(join(folderOf, "cairn.db"))).digest("hex")).toBe(big.sha256);
      expect(readdirSync(folderOf).sort()).toEqual(["cairn.db", "manifest.json"]);
    } finally {
      other.close();
    }
  });
});

test("no answer ever carried a credential", () => {
  expect(answers.length).toBeGreaterThan(30);
  for (const a of answers) expect(a.text).not.toContain(SECRET);
});
