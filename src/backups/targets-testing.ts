/**
 * For the targets' tests: a real S3-compatible server (s3rver, on loopback, in a temp folder)
 * and backups written as docs/decisions.md, "Backups live on disk" lays them out (backups/<label>/cairn.db + manifest.json),
 * with real blobs in the instance's file store.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import type { Core } from "../core";
import { blobStore } from "../platform/blobstore";
import { sha256Hex } from "../platform/crypto";
import type { BackupManifest } from "./manifest";

export const S3_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3 {
  endpoint: string;
  port: number;
  dir: string;
  close(): Promise<void>;
}

/** s3rver on 127.0.0.1 at a free port, with the given buckets. */
export async function startS3(buckets: string[] = ["cairn"]): Promise<TestS3> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const info = await server.run();
  return {
    endpoint: `http://127.0.0.1:${info.port}`,
    port: info.port,
    dir,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A folder outside any data directory, removed by the caller. */
export const tempFolder = (name = "target") => mkdtempSync(join(tmpdir(), `cairn-${name}-`));

/**
 * A backup as backups/<label>/ holds it: `dbBytes` stand for the copy (the copy never opens it),
 * `files` are stored in the file store first. Answers its manifest.
 */
export async function writeTestBackup(
  core: Core,
  label: string,
  opts: { dbBytes: Uint8Array; files?: Uint8Array[] },
): Promise<BackupManifest> {
  const files: string[] = [];
  for (const bytes of opts.files ?? []) {
    const lease = await blobStore(core).put(
      (async function* () {
        yield bytes;
      })(),
    );
    lease.release();
    files.push(lease.sha256);
  }
  const dir = join(core.data.backupsDir, label);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cairn.db"), opts.dbBytes);
  const manifest: BackupManifest = {
    format: 1,
    label,
    kind: "manual",
    createdAt: `${label.slice(0, 10)}T${label.slice(11, 19).replace(/-/g, ":")}.000Z`,
    appVersion: core.version,
    bytes: opts.dbBytes.byteLength,
    sha256: sha256Hex(opts.dbBytes),
    schemaVersion: "test",
    counts: { pages: 0, versions: 0, attachments: files.length, comments: 0, users: 1 },
    auditHead: null,
    files,
    wal: null,
    removedAt: null,
    removedReason: null,
  };
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** n random bytes (incompressible, distinct). */
export const randomData = (n: number) => crypto.getRandomValues(new Uint8Array(n));
