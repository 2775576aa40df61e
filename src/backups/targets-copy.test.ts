/**
 * The copy engine against the two real kinds of target: a folder and an S3-compatible server
 * (s3rver on loopback). Incremental by hash, resumable after an interruption, and the bytes on
 * the target match the backups' own hashes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeEnv, type TestEnv } from "../../tests/harness";
import { blobStore, FsBlobStore } from "../platform/blobstore";
import { sha256Hex } from "../platform/crypto";
import type { BackupManifest } from "./manifest";
import { directoryStorage } from "./target-directory";
import { s3Storage } from "./target-s3";
import { blobKey, INDEX_KEY, type TargetStorage } from "./target-storage";
import { copyBackups, type BackupSource } from "./targets-copy";
import { randomData, S3_KEY, startS3, tempFolder, writeTestBackup, type TestS3 } from "./targets-testing";

let env: TestEnv;
let s3: TestS3;
const folders: string[] = [];
const backups: BackupManifest[] = [];
const shared = randomData(3000);

beforeAll(async () => {
  env = makeEnv();
  s3 = await startS3(["cairn"]);
  // 6 MB: past Bun's 5 MiB part size, so the S3 copy goes as a multipart upload.
  backups.push(
    await writeTestBackup(env.core, "2026-11-20T03-00-00Z", {
      dbBytes: randomData(6 * 1024 * 1024 + 123),
      files: [shared, randomData(10_000)],
    }),
  );
  backups.push(await writeTestBackup(env.core, "2026-11-21T03-00-00Z", { dbBytes: randomData(200_000), files: [shared, randomData(5)] }));
});

afterAll(async () => {
  env.close();
  await s3.close();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

const sourceOf = (m: BackupManifest): BackupSource => ({
  label: m.label,
  dbPath: join(env.core.data.backupsDir, m.label, "cairn.db"),
  manifestPath: join(env.core.data.backupsDir, m.label, "manifest.json"),
  sha256: m.sha256,
  bytes: m.bytes,
  files: m.files,
});
const blobPath = (sha: string) => (blobStore(env.core) as FsBlobStore).pathOf(sha);
const idle = () => ({ signal: new AbortController().signal, report() {} });

async function shaOn(storage: TargetStorage, key: string): Promise<string | null> {
  const bytes = await storage.getBytes(key);
  return bytes ? sha256Hex(bytes) : null;
}

/** Every object the backups need is on the target with the right bytes. */
async function expectComplete(storage: TargetStorage, list: BackupManifest[]) {
  for (const m of list) {
    expect(await shaOn(storage, `backups/${m.label}/cairn.db`)).toBe(m.sha256);
    const manifest = await storage.getBytes(`backups/${m.label}/manifest.json`);
    expect(JSON.parse(new TextDecoder().decode(manifest!)).sha256).toBe(m.sha256);
    for (const sha of m.files) expect(await shaOn(storage, blobKey(sha))).toBe(sha);
  }
}

const kinds: Array<[string, () => Promise<TargetStorage>]> = [
  [
    "a folder",
    async () => {
      const dir = tempFolder();
      folders.push(dir);
      return directoryStorage(dir);
    },
  ],
  [
    "an S3 bucket (s3rver)",
    async () =>
      s3Storage(
        { endpoint: s3.endpoint, region: "us-east-1", bucket: "cairn", prefix: `run-${crypto.randomUUID()}`, pathStyle: true, ...S3_KEY },
        { allow: ["127.0.0.1"], timeoutMs: 5000 },
      ),
  ],
];

describe.each(kinds)("copying backups to %s", (_name, make) => {
  test("copies every backup and its files; copying again copies nothing new; a new backup copies only what is new", async () => {
    const storage = await make();
    const first = await copyBackups(storage, backups.map(sourceOf), blobPath, idle());
    // 3 distinct blobs (one shared by both backups) + 2 × (cairn.db + manifest).
    expect(first).toMatchObject({ backups: 2, copied: 7, skipped: 0, missingFiles: [] });
    // The databases, the three blobs and the two manifests (a few hundred bytes each).
    const dataBytes = backups.reduce((n, m) => n + m.bytes, 0) + 3000 + 10_000 + 5;
    expect(first.bytes).toBeGreaterThan(dataBytes);
    expect(first.bytes).toBeLessThan(dataBytes + 4000);
    await expectComplete(storage, backups);

    const again = await copyBackups(storage, backups.map(sourceOf), blobPath, idle());
    expect(again).toMatchObject({ copied: 0, skipped: 7, bytes: 0 });

    const third = await writeTestBackup(env.core, "2026-11-22T03-00-00Z", { dbBytes: randomData(50_000), files: [shared, randomData(77)] });
    try {
      const more = await copyBackups(storage, [...backups, third].map(sourceOf), blobPath, idle());
      expect(more).toMatchObject({ backups: 3, copied: 3, skipped: 7 });
      await expectComplete(storage, [...backups, third]);
    } finally {
      rmSync(join(env.core.data.backupsDir, third.label), { recursive: true });
    }
  });

  test("a copy interrupted half-way continues where it stopped and ends with the same bytes", async () => {
    const storage = await make();
    const controller = new AbortController();
    const phases: Array<[string, number | undefined, number | undefined]> = [];
    // Stop once the first object (the shared blob, then the other) is down and the big copy began.
    const job = {
      signal: controller.signal,
      report(phase: string, done?: number, total?: number) {
        phases.push([phase, done, total]);
        if (phase === "copying" && (done ?? 0) > 13_000) controller.abort(new Error("stopped by the test"));
      },
    };
    await expect(copyBackups(storage, backups.map(sourceOf), blobPath, job)).rejects.toThrow("stopped by the test");
    expect(phases[0]![0]).toBe("comparing");
    expect(phases.some(([p, d, t]) => p === "copying" && d === 0 && (t ?? 0) > 6_000_000)).toBe(true);
    // What landed is in the target's index; the big database did not land half-written.
    const index = JSON.parse(new TextDecoder().decode((await storage.getBytes(INDEX_KEY))!)) as { objects: Record<string, unknown> };
    const landed = Object.keys(index.objects);
    expect(landed.length).toBeGreaterThan(0);
    expect(landed.length).toBeLessThan(7);
    expect(await storage.getBytes(`backups/${backups[1]!.label}/manifest.json`)).toBeNull();

    const resumed = await copyBackups(storage, backups.map(sourceOf), blobPath, idle());
    expect(resumed.skipped).toBe(landed.length);
    expect(resumed.copied).toBe(7 - landed.length);
    await expectComplete(storage, backups);
  });
});

describe("the folder target", () => {
  test("an interrupted file leaves no partial behind once resumed, and objects go whole", async () => {
    const dir = tempFolder();
    folders.push(dir);
    const storage = directoryStorage(dir);
    const controller = new AbortController();
    const job = {
      signal: controller.signal,
      report(phase: string, done?: number) {
        // Inside the 6 MB database: its chunks are being written.
        if (phase === "copying" && (done ?? 0) > 1_000_000) controller.abort(new Error("stopped mid-file"));
      },
    };
    await expect(copyBackups(storage, backups.map(sourceOf), blobPath, job)).rejects.toThrow("stopped mid-file");
    const folder = join(dir, "backups", backups[0]!.label);
    expect(existsSync(join(folder, "cairn.db"))).toBe(false);
    expect(readdirSync(folder).filter((n) => n.startsWith(".partial-"))).toEqual([]);
    await copyBackups(storage, backups.map(sourceOf), blobPath, idle());
    await expectComplete(storage, backups);
  });

  test("a damaged local copy is refused, not sent (its bytes are hashed on the way)", async () => {
    const dir = tempFolder();
    folders.push(dir);
    const wrong = { ...sourceOf(backups[1]!), sha256: "0".repeat(64) };
    await expect(copyBackups(directoryStorage(dir), [wrong], blobPath, idle())).rejects.toThrow(/does not match its recorded hash/);
    expect(existsSync(join(dir, "backups", wrong.label, "cairn.db"))).toBe(false);
  });

  test("a blob a manifest names but the store lacks is reported, and the rest is copied", async () => {
    const dir = tempFolder();
    folders.push(dir);
    const ghost = "ab".repeat(32);
    const source = { ...sourceOf(backups[1]!), files: [...backups[1]!.files, ghost] };
    const summary = await copyBackups(directoryStorage(dir), [source], blobPath, idle());
    expect(summary.missingFiles).toEqual([ghost]);
    expect(summary.copied).toBe(4);
  });
});
