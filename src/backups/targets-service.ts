/**
 * Backup targets (docs/decisions.md, "Targets"): two slots, a folder (`directory`: an external disk
 * or network mount) and an S3-compatible bucket (`s3`). Configured here, probed (write, list, read
 * back, delete), and copied to as a job (targets-copy.ts). Credentials are sealed at rest
 * (targets-store.ts) and never answered.
 *
 * A copy holds every page, private spaces' too, and every password hash: where copies go is the
 * owner's decision, as a restore is. So listing, testing, removing and copying to a slot need
 * backups.manage, but setting a slot needs backups.restore (the owner's right, which the
 * Administrator role lacks) and a recent re-authentication; copying to a slot nobody holding
 * backups.restore has set needs that right too (and approves the slot). Every slot set, changed
 * or removed is a security event and a notification to the owner (notifications/fanout.ts).
 */
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import { hasRight, requireRight } from "../identity/rights";
import { iso } from "../platform/clock";
import { AppError, notFound } from "../platform/errors";
import { blobStore, FsBlobStore } from "../platform/blobstore";
import { join } from "node:path";
import { runningCopies, startJob, type BackupJobView } from "./targets-jobs";
import { directoryStorage } from "./target-directory";
import { refusedFolder } from "./target-folders";
import { s3Storage, explainS3 } from "./target-s3";
import type { TargetStorage } from "./target-storage";
import { copyBackups, type BackupSource, type CopySummary } from "./targets-copy";
import { checkTargetInput, type TargetInput } from "./targets-rules";
import {
  accessKeyIdOf,
  openS3,
  readTargets,
  recordRun,
  seal,
  UNREADABLE_CREDENTIALS,
  updateTargets,
  writeTargets,
  type LastRun,
  type Slot,
  type StoredDirectory,
  type StoredS3,
} from "./targets-store";
import { backupDbPath, listManifests } from "./store";

const PROBE_STEP_MS = 15_000;
const GUARD_MS = 10_000;

function manager(caller: Caller): UserCaller {
  const user = requireUser(caller);
  requireRight(user, "backups.manage");
  return user;
}

/** Whoever decides where copies of the wiki go: the right a restore needs. */
function chooser(caller: Caller): UserCaller {
  const user = requireUser(caller);
  requireRight(user, "backups.restore");
  return user;
}

/** Where a slot sends copies, in words for the owner's notification and the audit log (never a credential). */
function whereOf(file: { directory: StoredDirectory | null; s3: StoredS3 | null }, slot: Slot): string | null {
  if (slot === "directory") return file.directory?.path ?? null;
  const s3 = file.s3;
  return s3 && `${s3.endpoint}/${s3.bucket}${s3.prefix ? `/${s3.prefix}` : ""}`;
}

export interface DirectoryView extends Omit<StoredDirectory, "approvedBy"> {
  slot: "directory";
  /** Set by someone holding backups.restore: backups.manage may copy to it. */
  approved: boolean;
}
export interface S3View extends Omit<StoredS3, "accessKeyIdSealed" | "secretAccessKeySealed" | "approvedBy"> {
  slot: "s3";
  approved: boolean;
  /** null when the stored credentials do not open with this instance's key (enter them again). */
  accessKeyId: string | null;
  secretAccessKeySet: boolean;
}
export interface TargetsView {
  directory: DirectoryView | null;
  s3: S3View | null;
  /** Copy jobs running now, by slot. */
  copying: Partial<Record<Slot, BackupJobView>>;
}

function viewS3(core: Core, s: StoredS3): S3View {
  const { accessKeyIdSealed: _a, secretAccessKeySealed: _s, approvedBy, ...rest } = s;
  const accessKeyId = accessKeyIdOf(core, s);
  return { slot: "s3", ...rest, accessKeyId, secretAccessKeySet: accessKeyId !== null, approved: !!approvedBy };
}

function viewTargets(core: Core): TargetsView {
  const file = readTargets(core);
  const dir =
    file.directory && (({ approvedBy, ...rest }) => ({ slot: "directory" as const, ...rest, approved: !!approvedBy }))(file.directory);
  return { directory: dir, s3: file.s3 && viewS3(core, file.s3), copying: runningCopies(core) };
}

export function listTargets(core: Core, caller: Caller): TargetsView {
  manager(caller);
  return viewTargets(core);
}

/** PUT /api/admin/backups/targets/{slot}: the whole slot, checked field by field (400 naming the first wrong one). */
export function setTarget(core: Core, caller: Caller, slot: Slot, input: TargetInput): TargetsView {
  const user = chooser(caller);
  requireReauth(core, user);
  // A copy under way goes on to the place it started with; its outcome must not land on another.
  if (runningCopies(core)[slot])
    throw new AppError("copy_running", { detail: "Backups are being copied to this target; wait for the copy to finish, then change it." });
  const before = readTargets(core);
  const previousKey = before.s3 && accessKeyIdOf(core, before.s3);
  // Credentials that no longer open are as good as none: the secret must be sent again.
  const checked = checkTargetInput(
    core,
    slot,
    input,
    before.s3 && previousKey !== null ? { endpoint: before.s3.endpoint, accessKeyId: previousKey } : null,
  );
  const now = iso(core.clock.now());
  const keep = { lastTest: null, lastCopy: null };
  let changed: string[];
  core.tx(() => {
    const file = readTargets(core);
    if (checked.slot === "directory") {
      const old = file.directory;
      changed = old ? (old.path === checked.path ? [] : ["path"]) : ["path"];
      file.directory = {
        path: checked.path,
        updatedAt: now,
        approvedBy: user.user.id,
        ...(old && !changed.length ? { lastTest: old.lastTest, lastCopy: old.lastCopy } : keep),
      };
    } else {
      const old = file.s3;
      const t = checked.target;
      const fields = ["endpoint", "region", "bucket", "prefix", "pathStyle"] as const;
      changed = old ? fields.filter((f) => old[f] !== t[f]) : [...fields];
      if (!old || accessKeyIdOf(core, old) !== t.accessKeyId) changed.push("accessKeyId");
      if (checked.secretGiven) changed.push("secretAccessKey");
      file.s3 = {
        endpoint: t.endpoint,
        region: t.region,
        bucket: t.bucket,
        prefix: t.prefix,
        pathStyle: t.pathStyle,
        accessKeyIdSealed: seal(core, t.accessKeyId),
        secretAccessKeySealed: checked.secretGiven ? seal(core, t.secretAccessKey) : old!.secretAccessKeySealed,
        updatedAt: now,
        approvedBy: user.user.id,
        ...(old && !changed.length ? { lastTest: old.lastTest, lastCopy: old.lastCopy } : keep),
      };
    }
    // Names of fields and where copies go: never a credential's value.
    recordEvent(core, {
      type: "backup.target_changed",
      targetType: "backup",
      targetId: `target:${slot}`,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { slot, action: before[slot] ? "changed" : "added", fields: changed, where: whereOf(file, slot) },
    });
    writeTargets(core, file);
  });
  return viewTargets(core);
}

/** DELETE /api/admin/backups/targets/{slot}: forgets the slot (what was copied there stays there). */
export function removeTarget(core: Core, caller: Caller, slot: Slot): void {
  const user = manager(caller);
  if (!readTargets(core)[slot]) return;
  if (runningCopies(core)[slot])
    throw new AppError("copy_running", { detail: "Backups are being copied to this target; wait for the copy to finish, then remove it." });
  core.tx(() => {
    recordEvent(core, {
      type: "backup.target_changed",
      targetType: "backup",
      targetId: `target:${slot}`,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { slot, action: "removed", fields: [], where: whereOf(readTargets(core), slot) },
    });
    updateTargets(core, (f) => {
      f[slot] = null;
    });
  });
}

/** Connects to a configured slot (the outbound guard checks an S3 endpoint first). */
async function storageOf(core: Core, slot: Slot): Promise<{ storage: TargetStorage } | { error: string }> {
  const file = readTargets(core);
  if (slot === "directory") {
    if (!file.directory) throw notFound("No folder is set as a backup target");
    return { storage: directoryStorage(file.directory.path, (real) => refusedFolder(real, core.data.root)) };
  }
  if (!file.s3) throw notFound("No S3 bucket is set as a backup target");
  if (accessKeyIdOf(core, file.s3) === null) return { error: UNREADABLE_CREDENTIALS };
  const target = openS3(core, file.s3);
  try {
    return { storage: await s3Storage(target, { allow: core.config.outboundAllow, timeoutMs: GUARD_MS }) };
  } catch (err) {
    return { error: explainS3(err, target) };
  }
}

export interface ProbeStep {
  step: "connect" | "write" | "list" | "read back" | "delete";
  ok: boolean;
  ms: number;
}
export interface ProbeReport {
  ok: boolean;
  steps: ProbeStep[];
  /** Plain words on what to fix, or null. */
  error: string | null;
}

function within<T>(ms: number, what: Promise<T>): Promise<T> {
  let timer: Timer;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms / 1000} s`), { code: "TimedOut" })), ms);
  });
  return Promise.race([what, late]).finally(() => clearTimeout(timer));
}

/**
 * POST …/targets/{slot}/test: writes a probe, finds it in a listing, reads it back and deletes
 * it. Whatever fails is a report (200, ok false, the step and plain words), never a 500.
 */
export async function testTarget(core: Core, caller: Caller, slot: Slot): Promise<ProbeReport> {
  manager(caller);
  const steps: ProbeStep[] = [];
  const report = (error: string | null): ProbeReport => {
    const r = { ok: error === null, steps, error };
    recordRun(core, slot, "lastTest", { at: iso(core.clock.now()), ok: r.ok, error });
    return r;
  };
  let started = performance.now();
  const connected = await storageOf(core, slot);
  const ms = () => Math.round(performance.now() - started);
  if ("error" in connected) {
    steps.push({ step: "connect", ok: false, ms: ms() });
    return report(connected.error);
  }
  const { storage } = connected;
  if (slot === "s3") steps.push({ step: "connect", ok: true, ms: ms() });
  const key = `cairn-probe-${crypto.randomUUID()}.txt`;
  const body = new TextEncoder().encode(`Cairn backup target probe, ${iso(core.clock.now())}\n`);
  const run = async (step: ProbeStep["step"], fn: () => Promise<void>): Promise<boolean> => {
    started = performance.now();
    try {
      await within(PROBE_STEP_MS, fn());
      steps.push({ step, ok: true, ms: ms() });
      return true;
    } catch (err) {
      steps.push({ step, ok: false, ms: ms() });
      failure = `${stepWords[step]}: ${err instanceof ProbeMismatch ? err.message : storage.explain(err)}`;
      return false;
    }
  };
  let failure: string | null = null;
  const ok =
    (await run("write", () => storage.putBytes(key, body))) &&
    (await run("list", async () => {
      if ((await storage.sizes([key])).get(key) !== body.byteLength)
        throw new ProbeMismatch(`the probe written to ${storage.where} is not in its listing (or not at its size)`);
    })) &&
    (await run("read back", async () => {
      const got = await storage.getBytes(key);
      if (!got || Buffer.compare(Buffer.from(got), Buffer.from(body)) !== 0)
        throw new ProbeMismatch(`the probe read back from ${storage.where} is not what was written`);
    })) &&
    (await run("delete", () => storage.remove(key)));
  if (!ok) await within(PROBE_STEP_MS, storage.remove(key)).catch(() => {});
  return report(ok ? null : failure);
}

class ProbeMismatch extends Error {}
const stepWords: Record<ProbeStep["step"], string> = {
  connect: "Connecting failed",
  write: "Writing a probe failed",
  list: "Listing failed",
  "read back": "Reading the probe back failed",
  delete: "Deleting the probe failed",
};

/** What the copy sends: every retained backup whose copy is still on disk. */
function retainedBackups(core: Core): BackupSource[] {
  return listManifests(core).map((m) => ({
    label: m.label,
    dbPath: backupDbPath(core, m.label),
    manifestPath: join(core.data.backupsDir, m.label, "manifest.json"),
    sha256: m.sha256,
    bytes: m.bytes,
    files: m.files,
  }));
}

/** POST …/targets/{slot}/copy: 202 with the job; one copy per slot at a time (409 copy_running). */
export function startCopy(core: Core, caller: Caller, slot: Slot): BackupJobView {
  const user = requireUser(caller);
  if (!hasRight(user, "backups.restore")) requireRight(user, "backups.manage");
  const stored = readTargets(core)[slot];
  if (!stored) throw notFound(slot === "directory" ? "No folder is set as a backup target" : "No S3 bucket is set as a backup target");
  // A slot nobody holding backups.restore set (one from before that rule): its first copy is theirs to start.
  if (stored.approvedBy) requireRight(user, "backups.manage");
  else if (!hasRight(user, "backups.restore"))
    throw new AppError("permission_required", {
      extra: { permission: "backups.restore" },
      detail:
        "This target was not set by the owner (or someone holding backups.restore): they must set it again, " +
        "or copy to it once, before copies to it can be started with backups.manage.",
    });
  const running = runningCopies(core)[slot];
  if (running)
    throw new AppError("copy_running", {
      extra: { job: running },
      detail: `Backups are being copied to this target (job ${running.id}); wait for it to finish.`,
    });
  if (!stored.approvedBy) {
    updateTargets(core, (f) => {
      if (f[slot]) f[slot]!.approvedBy = user.user.id;
    });
  }
  const store = blobStore(core);
  const blobPath =
    store instanceof FsBlobStore
      ? (sha: string) => store.pathOf(sha)
      : (sha: string) => join(core.data.filesDir, sha.slice(0, 2), sha.slice(2));
  return startJob(core, slot, async (job) => {
    job.report("connecting");
    const connected = await storageOf(core, slot);
    const finish = (run: Omit<LastRun, "at">) => recordRun(core, slot, "lastCopy", { at: iso(core.clock.now()), ...run });
    if ("error" in connected) {
      finish({ ok: false, error: connected.error });
      throw new AppError("service_unavailable", { detail: connected.error });
    }
    const { storage } = connected;
    let summary: CopySummary;
    try {
      summary = await copyBackups(storage, retainedBackups(core), blobPath, job);
    } catch (err) {
      const words = job.signal.aborted ? "The copy was cancelled; the next copy continues where it stopped." : storage.explain(err);
      finish({ ok: false, error: words });
      throw job.signal.aborted ? err : new AppError("service_unavailable", { detail: words });
    }
    const { missingFiles, ...counts } = summary;
    finish({
      ok: true,
      error: missingFiles.length
        ? `${missingFiles.length} file(s) named by a backup are missing from this server and were not copied.`
        : null,
      summary: { ...counts, missingFiles: missingFiles.length },
    });
    core.tx(() =>
      recordEvent(core, {
        type: "backup.copied",
        targetType: "backup",
        targetId: `target:${slot}`,
        spaceId: null,
        actorId: user.user.id,
        ip: user.ip,
        data: { slot, ...counts, missingFiles: missingFiles.length },
      }),
    );
    return { slot, ...summary };
  });
}
